package io.weft.lab.netns;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.weft.fabric.Link;

/**
 * One {@code weft-switch} gNMI agent per switch of a lab, each a process in the root namespace
 * operating its switch's namespace ({@code --netns}), serving gNMI on a loopback port. Its log
 * ({@code <switch>.log}) and pid file ({@code <switch>.pid}) live in the lab's state directory,
 * with {@code gnmi-targets.txt} listing {@code <switch> 127.0.0.1:<port>} (weft-telemetry's
 * --targets-file format).
 *
 * <p>Agents are started in their own session ({@code setsid}): they outlive the {@code lab up}
 * JVM and a terminal's Ctrl-C does not reach them, so only {@link #kill} (by pid, from lab down
 * or the next up) stops them.
 */
final class SwitchAgents {
    static final String TARGETS_FILE = "gnmi-targets.txt";
    static final String LOOPBACK = "127.0.0.1";
    /** How long an agent may take from exec to an accepting port. */
    private static final long READY_TIMEOUT_MS = 20_000;
    /** How long stopping agents may take before they are killed outright. */
    private static final long GRACE_MS = 1_000;

    private SwitchAgents() {
    }

    /** {@code --port-map} of a switch: fabric port name to the lab's veth, in link order. */
    static String portMap(LabLayout layout, String sw) {
        List<String> out = new ArrayList<>();
        for (Link l : layout.fabric().linksOf(sw)) {
            out.add(l.endOf(sw).port() + "=" + layout.iface(l.id(), sw));
        }
        return String.join(",", out);
    }

    /** A loopback port nothing listens on right now (the agent binds it a moment later). */
    static int freePort() throws LabException {
        try (ServerSocket s = new ServerSocket()) {
            s.setReuseAddress(false);
            s.bind(new InetSocketAddress(LOOPBACK, 0));
            return s.getLocalPort();
        } catch (IOException e) {
            throw new LabException("no free loopback port for a switch agent: " + e.getMessage());
        }
    }

    /** Starts the agent of one switch and returns once its gNMI port accepts connections. */
    static Process start(Path binary, Path dir, LabLayout layout, String sw, int port) throws LabException {
        List<String> cmd = List.of("setsid", binary.toString(), "--netns", layout.namespace(sw),
                "--listen", LOOPBACK + ":" + port, "--port-map", portMap(layout, sw), "--target", sw);
        Path log = dir.resolve(sw + ".log");
        Process p;
        try {
            Files.createDirectories(dir);
            p = new ProcessBuilder(cmd).redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                    .start();
            // setsid execs in place (a JVM child leads no process group), so this is the agent's pid.
            Files.writeString(dir.resolve(sw + ".pid"), p.pid() + "\n");
        } catch (IOException e) {
            throw new LabException("switch agent of " + sw + ": cannot start " + binary + " (" + e.getMessage() + ")");
        }
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(READY_TIMEOUT_MS);
        while (true) {
            if (!p.isAlive()) {
                throw new LabException("switch agent of " + sw + " exited with " + p.exitValue() + " before serving"
                        + " gNMI on " + LOOPBACK + ":" + port + ": " + tail(log));
            }
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress(LOOPBACK, port), 200);
                return p;
            } catch (IOException notYet) {
                if (System.nanoTime() > end) {
                    p.destroyForcibly();
                    throw new LabException("switch agent of " + sw + ": " + LOOPBACK + ":" + port
                            + " not accepting after "
                            + READY_TIMEOUT_MS + " ms: " + tail(log));
                }
                try {
                    Thread.sleep(10);
                } catch (InterruptedException e) {
                    p.destroyForcibly();
                    Thread.currentThread().interrupt();
                    throw new LabException("switch agent of " + sw + ": interrupted while starting");
                }
            }
        }
    }

    /** Writes {@code gnmi-targets.txt}: one {@code <switch> 127.0.0.1:<port>} line per switch. */
    static void writeTargets(Path dir, Map<String, Integer> ports) throws LabException {
        StringBuilder sb = new StringBuilder();
        ports.forEach((sw, port) -> sb.append(sw).append(' ').append(LOOPBACK).append(':').append(port).append('\n'));
        try {
            Files.createDirectories(dir);
            Files.writeString(dir.resolve(TARGETS_FILE), sb.toString());
        } catch (IOException e) {
            throw new LabException("cannot write " + dir.resolve(TARGETS_FILE) + ": " + e.getMessage());
        }
    }

    /** Switch to gNMI port, from {@code gnmi-targets.txt}; empty if there is none. */
    static Map<String, Integer> readTargets(Path dir) throws LabException {
        Map<String, Integer> out = new LinkedHashMap<>();
        Path f = dir.resolve(TARGETS_FILE);
        if (!Files.exists(f)) {
            return out;
        }
        try {
            for (String line : Files.readAllLines(f)) {
                String[] w = line.strip().split("\\s+");
                if (w.length == 2 && w[1].startsWith(LOOPBACK + ":")) {
                    out.put(w[0], Integer.parseInt(w[1].substring(LOOPBACK.length() + 1)));
                }
            }
        } catch (IOException | NumberFormatException e) {
            throw new LabException("unreadable " + f + ": " + e.getMessage());
        }
        return out;
    }

    /**
     * Stops every agent of the lab with this tag and waits until each has exited: those named by
     * pid files in {@code dir} (may be null) and any other weft-switch process whose
     * {@code --netns} is one of the lab's namespaces (a run whose state directory was elsewhere).
     * A pid is only signalled when its command line names this lab's namespace, so a recycled pid
     * is left alone. Returns how many were stopped.
     */
    static int kill(String tag, Path dir) {
        List<ProcessHandle> mine = new ArrayList<>();
        if (dir != null && Files.isDirectory(dir)) {
            try (var files = Files.list(dir)) {
                for (Path f : (Iterable<Path>) files.filter(x -> x.toString().endsWith(".pid"))::iterator) {
                    try {
                        long pid = Long.parseLong(Files.readString(f).strip());
                        ProcessHandle.of(pid).filter(h -> ownedBy(h, tag)).ifPresent(mine::add);
                    } catch (IOException | NumberFormatException e) {
                        // An unreadable pid file: the scan below still finds the agent.
                    }
                    deleteQuietly(f);
                }
            } catch (IOException e) {
                // As above: the scan covers it.
            }
        }
        ProcessHandle.allProcesses().filter(h -> ownedBy(h, tag))
                .filter(h -> mine.stream().noneMatch(m -> m.pid() == h.pid())).forEach(mine::add);
        // SIGTERM lets an agent close its gRPC server; the ones still there after one shared grace
        // period get SIGKILL (the lab's state is the kernel's, an agent has nothing to save).
        mine.forEach(ProcessHandle::destroy);
        awaitExit(mine, GRACE_MS);
        mine.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
        awaitExit(mine, GRACE_MS);
        return mine.size();
    }

    private static void awaitExit(List<ProcessHandle> handles, long ms) {
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ms);
        for (ProcessHandle h : handles) {
            long left = end - System.nanoTime();
            try {
                h.onExit().get(Math.max(left, 0), TimeUnit.NANOSECONDS);
            } catch (Exception timedOut) {
                // Counted by the caller's isAlive check.
            }
        }
    }

    /** True when the process is a weft-switch operating a namespace of this lab. */
    private static boolean ownedBy(ProcessHandle h, String tag) {
        String prefix = LabLayout.prefix(tag);
        List<String> args = cmdline(h.pid());
        if (args.isEmpty() || !args.get(0).endsWith("weft-switch")) {
            return false;
        }
        for (int i = 1; i + 1 < args.size(); i++) {
            if (args.get(i).equals("--netns") && args.get(i + 1).startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }

    /** The argv of a process from /proc (ProcessHandle.Info drops it for other users' processes). */
    private static List<String> cmdline(long pid) {
        try {
            byte[] raw = Files.readAllBytes(Path.of("/proc", Long.toString(pid), "cmdline"));
            List<String> out = new ArrayList<>();
            for (String s : new String(raw, StandardCharsets.UTF_8).split("\0")) {
                out.add(s);
            }
            return out;
        } catch (IOException e) {
            return List.of();
        }
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log);
            List<String> last = lines.subList(Math.max(0, lines.size() - 5), lines.size());
            return last.isEmpty() ? "(no output; log " + log + ")" : String.join(" | ", last) + " (log " + log + ")";
        } catch (IOException e) {
            return "(log " + log + " unreadable)";
        }
    }

    private static void deleteQuietly(Path f) {
        try {
            Files.deleteIfExists(f);
        } catch (IOException ignored) {
            // A leftover pid file is re-checked against /proc before it is ever used.
        }
    }
}
