package io.weft.scheduler.apibench;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Where the service's CPU in a round goes, by sampling it with async-profiler (loaded into the
 * service's JVM with {@code jcmd JVMTI.agent_load}; its library comes from the Maven artifact on the
 * bench's class path). On loopback the agents' TCP receive runs in the softirq that the service's
 * own {@code write} raises: the kernel charges it to the writing thread, so the service's CPU per
 * agent includes work the agents' hosts would do. Samples with CPU-clock stacks tell them apart: a
 * stack under the kernel's receive path ({@code net_rx_action} ... {@code tcp_v4_rcv}) is the
 * receiver's; any other stack with kernel frames is the send's (system call, TCP, IP, loopback
 * transmit); the rest is the JVM's (Java, JIT-compiled code, GC). JIT compiler threads are left out,
 * as in {@code service_cpu_us_per_agent}.
 */
final class ServiceProfile {
    /** Frames of the loopback receive path, run on the sender's behalf in its softirq. */
    private static final Pattern RECEIVE = Pattern.compile(
            ";(net_rx_action|__netif_receive_skb[a-z_]*|process_backlog|ip_rcv|ip_local_deliver|tcp_v4_rcv"
                    + "|ip6_rcv|tcp_v6_rcv)_\\[k\\]");
    private static final String LIBRARY = "/linux-x64/libasyncProfiler.so";
    /** 100 µs: a round of ~100 ms on the fan-out threads gives ~1,000 samples. */
    private static final String START = "start,event=cpu,interval=100us,threads";

    /** A round's samples: all (JIT out), under the receive path, other kernel stacks; the same on fan-out threads. */
    record Split(long samples, long receive, long send, long fanout, long fanoutReceive, long fanoutSend) {
        static final Split NONE = new Split(0, 0, 0, 0, 0, 0);

        double receiveShare() {
            return samples == 0 ? Double.NaN : (double) receive / samples;
        }

        double fanoutShare(long part) {
            return fanout == 0 ? Double.NaN : (double) part / fanout;
        }
    }

    private final long pid;
    private final Path library;
    private final Path dir;
    private int rounds;

    private ServiceProfile(long pid, Path library, Path dir) {
        this.pid = pid;
        this.library = library;
        this.dir = dir;
    }

    /** The profiler for the service's JVM, its library unpacked into {@code dir}. */
    static ServiceProfile of(long pid, Path dir) throws IOException {
        Files.createDirectories(dir);
        Path lib = dir.resolve("libasyncProfiler.so");
        try (InputStream in = ServiceProfile.class.getResourceAsStream(LIBRARY)) {
            if (in == null) {
                throw new IllegalStateException("async-profiler's " + LIBRARY + " is not on the class path "
                        + "(tools.profiler:async-profiler, a test dependency of scheduler-api)");
            }
            Files.copy(in, lib, StandardCopyOption.REPLACE_EXISTING);
        }
        return new ServiceProfile(pid, lib, dir);
    }

    void start() throws IOException, InterruptedException {
        agent(START);
    }

    /** Stops sampling and splits the round's samples (kept as {@code round-N.collapsed}). */
    Split stop() throws IOException, InterruptedException {
        return stop("round-" + (++rounds));
    }

    /** Stops sampling and splits the samples, kept in {@code name.collapsed} (async-profiler's collapsed stacks). */
    Split stop(String name) throws IOException, InterruptedException {
        Path out = dir.resolve(name + ".collapsed");
        agent("stop,file=" + out + ",collapsed");
        try (Stream<String> lines = Files.lines(out)) {
            return split(lines.toList());
        }
    }

    /** Splits collapsed stacks ({@code [thread tid=N];frame;...;frame count}, kernel frames ending in {@code _[k]}). */
    static Split split(List<String> collapsed) {
        long all = 0;
        long receive = 0;
        long send = 0;
        long fanout = 0;
        long fanoutReceive = 0;
        long fanoutSend = 0;
        for (String line : collapsed) {
            int space = line.lastIndexOf(' ');
            if (space < 0 || line.startsWith("[C1 CompilerThre") || line.startsWith("[C2 CompilerThre")) {
                continue;
            }
            long n = Long.parseLong(line.substring(space + 1).trim());
            String stack = line.substring(0, space);
            boolean isFanout = stack.startsWith("[weft-fanout");
            all += n;
            fanout += isFanout ? n : 0;
            if (RECEIVE.matcher(stack).find()) {
                receive += n;
                fanoutReceive += isFanout ? n : 0;
            } else if (stack.contains("_[k]")) {
                send += n;
                fanoutSend += isFanout ? n : 0;
            }
        }
        return new Split(all, receive, send, fanout, fanoutReceive, fanoutSend);
    }

    private void agent(String command) throws IOException, InterruptedException {
        Path jcmd = ProcessHandle.current().info().command().map(java -> Path.of(java).resolveSibling("jcmd"))
                .filter(Files::isExecutable).orElse(Path.of("jcmd"));
        // Quoted: jcmd would read the option's '=' as one of its own name=value arguments.
        Process p = new ProcessBuilder(jcmd.toString(), Long.toString(pid), "JVMTI.agent_load", library.toString(),
                '"' + command + '"').redirectErrorStream(true).start();
        String said = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0 || !said.contains("return code: 0")) {
            throw new IllegalStateException("async-profiler '" + command + "' in " + pid + " failed: " + said.strip());
        }
    }
}
