package io.weft.lab.experiment;

import java.util.Random;

import io.weft.lab.netns.LabException;
import io.weft.lab.netns.NetnsLab;

/**
 * A noisy link that is not congested: the TBF on one port flaps every {@code slotMs} to a rate that
 * drops a random share of the flow, uniform in [0, 2 x meanDrop], so the link drops meanDrop of the
 * flow on average (below the detection threshold when meanDrop is) while single samples see more.
 * Seeded: two runs flap alike. Runs on its own thread until {@link #close}, which puts the line rate
 * back and reports what the qdisc really dropped.
 */
final class LinkNoise implements AutoCloseable {
    private final NetnsLab lab;
    private final String node;
    private final String link;
    private final Thread thread;
    private final NetnsLab.QdiscStats before;
    private volatile boolean stop;
    private volatile Exception failure;
    private int slots;

    /**
     * @param flowTbfMbit the flow's rate as the TBF meters it (frames with the SRv6 outer header)
     */
    LinkNoise(NetnsLab lab, String node, String link, double flowTbfMbit, double meanDrop, long slotMs, long seed)
            throws LabException {
        this.lab = lab;
        this.node = node;
        this.link = link;
        this.before = lab.qdisc(node, link);
        Random random = new Random(seed);
        thread = new Thread(() -> {
            try {
                while (!stop) {
                    double drop = random.nextDouble() * 2 * meanDrop;
                    lab.shape(node, link, flowTbfMbit * (1 - drop));
                    slots++;
                    Thread.sleep(slotMs);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (LabException | RuntimeException e) {
                failure = e;
            }
        }, "weft-experiment-noise");
        thread.setDaemon(true);
        thread.start();
    }

    /** Stops flapping, restores the line rate; returns the share of packets the qdisc dropped meanwhile. */
    double stopAndMeasure() throws LabException, InterruptedException {
        stop = true;
        thread.join(5000);
        NetnsLab.QdiscStats after = lab.qdisc(node, link);
        lab.shape(node, link, LabStack.LINE_MBIT);
        if (failure != null) {
            throw new IllegalStateException("link noise failed after " + slots + " slots: " + failure.getMessage(),
                    failure);
        }
        long sent = after.packets() - before.packets();
        long dropped = after.drops() - before.drops();
        return sent + dropped == 0 ? 0 : (double) dropped / (sent + dropped);
    }

    @Override
    public void close() {
        stop = true;
        thread.interrupt();
    }
}
