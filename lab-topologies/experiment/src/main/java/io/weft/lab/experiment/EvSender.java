package io.weft.lab.experiment;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The EV-mode traffic driver: the training stack's part. It reads the entropy value the nic-agent
 * publishes for the flow's (src, dst) pair in its HCCL-shaped EV file ({@code srcIP,dstIP=sport0,...}),
 * sends iperf3 UDP from that source port ({@code --cport}), and when the agent's EV for the pair
 * changes, stops the sender and starts one from the new port for the rest of the run. Two iperf3
 * servers on two ports take the senders in turn, so a new sender never finds the server still busy
 * with the one just stopped. Every change is recorded: when the file showed it, when the new sender
 * started.
 */
final class EvSender implements AutoCloseable {
    /**
     * One change of the sender: the EV file showed {@code port} at {@code seen}, the sender restarted at {@code
     * started}.
     */
    record Rebind(int port, Instant seen, Instant started) {
    }

    private static final long WATCH_MS = 5;

    private final Path evFile;
    private final String pair;
    private final List<String> clientBase;
    private final int[] serverPorts;
    private final Path out;
    private final long endNs;
    private final List<Rebind> rebinds = new ArrayList<>();
    private final Thread watcher;
    private volatile boolean stop;
    private volatile Exception failure;
    private Process client;
    private int port;
    private int starts;

    /**
     * @param clientBase the iperf3 client command without {@code -p}, {@code --cport} and {@code -t}
     *                   (e.g. {@code ip netns exec ns iperf3 -c addr -u -b 200M ...})
     */
    EvSender(Path evFile, String srcAddress, String dstAddress, List<String> clientBase, int[] serverPorts,
             int durationS, Path out) throws IOException {
        this.evFile = evFile;
        this.pair = srcAddress + "," + dstAddress + "=";
        this.clientBase = clientBase;
        this.serverPorts = serverPorts;
        this.out = out;
        this.endNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(durationS);
        this.port = currentPort();
        if (port < 0) {
            throw new IllegalStateException("the agent's EV file " + evFile + " has no entry for " + pair);
        }
        start(Instant.now());
        watcher = new Thread(this::watch, "weft-experiment-ev-sender");
        watcher.setDaemon(true);
        watcher.start();
    }

    /** The first EV of the pair in the agent's file, or -1. */
    int currentPort() throws IOException {
        List<String> lines;
        try {
            lines = Files.readAllLines(evFile);
        } catch (NoSuchFileException e) {
            return -1;
        }
        return portOf(lines, pair);
    }

    static int portOf(List<String> lines, String pairPrefix) {
        for (String line : lines) {
            if (line.startsWith(pairPrefix)) {
                String ports = line.substring(pairPrefix.length()).trim();
                String first = ports.split(",")[0].trim();
                return first.isEmpty() ? -1 : Integer.parseInt(first);
            }
        }
        return -1;
    }

    int port() {
        return port;
    }

    synchronized List<Rebind> rebinds() {
        return List.copyOf(rebinds);
    }

    /** True while a sender runs and the run's time is not over. */
    synchronized boolean sending() {
        return client != null && client.isAlive() && System.nanoTime() < endNs;
    }

    private void watch() {
        try {
            while (!stop && System.nanoTime() < endNs) {
                int now = currentPort();
                if (now >= 0 && now != port) {
                    Instant seen = Instant.now();
                    synchronized (this) {
                        port = now;
                        client.destroy(); // iperf3 tells its server the test ended
                        Instant started = start(seen);
                        rebinds.add(new Rebind(now, seen, started));
                    }
                }
                Thread.sleep(WATCH_MS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException | RuntimeException e) {
            failure = e;
        }
    }

    private synchronized Instant start(Instant seen) throws IOException {
        long leftS = Math.max(1, TimeUnit.NANOSECONDS.toSeconds(endNs - System.nanoTime() + 999_999_999L));
        List<String> cmd = new ArrayList<>(clientBase);
        cmd.addAll(List.of("-p", Integer.toString(serverPorts[starts % serverPorts.length]), "--cport",
                Integer.toString(port), "-t", Long.toString(leftS)));
        client = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(out.toFile())).start();
        starts++;
        return Instant.now();
    }

    /** Fails if the watcher failed. */
    void check() {
        if (failure != null) {
            throw new IllegalStateException("EV sender: " + failure.getMessage(), failure);
        }
    }

    @Override
    public synchronized void close() {
        stop = true;
        watcher.interrupt();
        if (client != null && client.isAlive()) {
            LabStack.stop(client);
        }
    }
}
