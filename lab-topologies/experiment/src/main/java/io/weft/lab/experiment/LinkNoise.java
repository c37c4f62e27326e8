package io.weft.lab.experiment;

import java.util.Random;

import io.weft.lab.netns.LabException;
import io.weft.lab.netns.NetnsLab;

/**
 * A noisy link that is not congested: short loss bursts. Every {@code slotMs} the port's TBF is, with
 * probability meanDrop / burstDrop, set to a rate that drops {@code burstDrop} of the flow for that
 * slot, and otherwise left at the line rate (no loss); {@code tc} runs only when the state changes.
 * So the link drops about meanDrop of the flow (below the detection threshold when meanDrop is),
 * while single samples see 0 or up to burstDrop, and successive lossy samples are rarer the more of
 * them a rule asks for. Seeded: two runs flap alike. Runs on its own thread until
 * {@link #stopAndMeasure}, which puts the line rate back and says what the qdisc really dropped.
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
    private int lossySlots;

    /**
     * @param flowTbfMbit the flow's rate as the TBF meters it (frames with any encap header)
     */
    LinkNoise(NetnsLab lab, String node, String link, double flowTbfMbit, double meanDrop, double burstDrop,
              long slotMs, long seed) throws LabException {
        this.lab = lab;
        this.node = node;
        this.link = link;
        this.before = lab.qdisc(node, link);
        Random random = new Random(seed);
        double lossyShare = meanDrop / burstDrop;
        thread = new Thread(() -> {
            try {
                boolean lossy = false;
                while (!stop) {
                    boolean next = random.nextDouble() < lossyShare;
                    if (next != lossy) {
                        // A 1 ms queue: the lossy slot drops its excess then, not after a 20 ms buffer
                        // filled (which a 100 ms slot 10 % over the rate never does).
                        lab.shape(node, link, next ? flowTbfMbit * (1 - burstDrop) : LabStack.LINE_MBIT, 1);
                        lossy = next;
                    }
                    slots++;
                    lossySlots += lossy ? 1 : 0;
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
