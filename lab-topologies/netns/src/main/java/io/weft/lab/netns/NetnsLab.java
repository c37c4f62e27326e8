package io.weft.lab.netns;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.weft.fabric.Arc;
import io.weft.fabric.Link;
import io.weft.fabric.Node;
import io.weft.plan.FabricPlan;
import io.weft.plan.PathEncoding;

/**
 * A fabric built in Linux network namespaces on the kernel's SRv6 data plane, configured from a
 * {@link FabricPlan}: one namespace per switch and NIC, a veth pair per link, the NICs' addresses
 * and default routes ({@link LabScript}), and host encap routes on the NICs shaped exactly like
 * the nic-agent's ({@link #programPath}). The switches are configured the way a real fabric is:
 * one gNMI switch agent ({@code weft-switch}) per switch, and the controller's southbound
 * provisioner pushing each switch's {@code DeviceIntent} to it ({@link LabProvisioning}). The lab
 * itself never writes a switch route, so what the lab forwards is what the controller's payload
 * says.
 *
 * <p>Agents' pid files and logs, {@code gnmi-targets.txt} and {@code fabric-gnmi.json} (the fabric
 * with each switch's gNMI endpoint, for {@code ./weft controller --fabric}) are kept under the
 * state directory, {@code <state>/<tag>/}.
 *
 * <p>Needs root, iproute2, a kernel with SRv6 and the switch agent ({@link #hostProblem()} says
 * what is missing).
 */
public final class NetnsLab {
    /** rtm_protocol of the NIC encap routes: the nic-agent's value (nic-agent/internal/route). */
    public static final int ROUTE_PROTOCOL = 200;
    /** The nic-agent's first port table: {@link #steerEv} uses this plus the port's rank. */
    public static final int STEER_TABLE = 0x5746_0000;

    /** Reports build progress: {@code done} of {@code total} namespaces configured. */
    public interface Progress {
        void step(String what, int done, int total);

        Progress NONE = (what, done, total) -> { };
    }

    /** What one ping run saw. */
    public record PingResult(int sent, int received, String output) {
    }

    /** A port's root qdisc counters, as `tc -s qdisc` reports them. */
    public record QdiscStats(String kind, long packets, long drops, long overlimits, long backlogBytes) {
    }

    private static final Pattern BATCH_FAILED = Pattern.compile("Command failed -:(\\d+)");
    private static final Pattern PING_SUMMARY = Pattern.compile("(\\d+) packets transmitted, (\\d+) received");

    private final FabricPlan plan;
    private final LabLayout layout;
    /** Agent starts of the build in progress; the interrupt cleanup closes it before it looks for agents. */
    private final Gate agentStarts = new Gate();
    private final LabScript script;
    private final Shell shell;
    private int workers = DEFAULT_WORKERS;
    private Path stateRoot = Path.of(".weft", "lab");
    private long syncTimeoutMs = DEFAULT_SYNC_TIMEOUT_MS;

    /** How long up waits for every switch to confirm its intent over gNMI. */
    public static final long DEFAULT_SYNC_TIMEOUT_MS = 120_000;
    /** The lab-wide fabric copy whose switches carry their agents' gNMI endpoints. */
    public static final String GNMI_FABRIC_FILE = "fabric-gnmi.json";

    /**
     * Child processes in flight while building. On the 2-core lab machine (load ~14 from other
     * builds) a k=8 fat-tree (208 namespaces) took 4.0-5.9 s with 1 and 2.9-4.0 s with 4.
     */
    public static final int DEFAULT_WORKERS = 4;

    public NetnsLab(FabricPlan plan, String tag, Shell shell) {
        this.plan = plan;
        this.layout = new LabLayout(plan.fabric(), tag);
        this.script = new LabScript(plan, layout);
        this.shell = shell;
    }

    public NetnsLab(FabricPlan plan, String tag) {
        this(plan, tag, new Shell());
    }

    /** How many per-namespace commands run at once while building (1 = one after the other). */
    public NetnsLab workers(int n) {
        if (n < 1 || n > 64) {
            throw new IllegalArgumentException("workers: must be in 1..64 (got " + n + ")");
        }
        this.workers = n;
        return this;
    }

    /** Where the lab keeps agent pids, logs and endpoint files: {@code <root>/<tag>/} (default .weft/lab). */
    public NetnsLab stateDir(Path root) {
        this.stateRoot = root;
        return this;
    }

    /** This lab's own state directory. */
    public Path labDir() {
        return stateRoot.resolve(layout.tag());
    }

    /** How long {@link #up} waits for every switch to be IN_SYNC. */
    public NetnsLab syncTimeoutMs(long ms) {
        if (ms < 1) {
            throw new IllegalArgumentException("syncTimeoutMs: must be >= 1 (got " + ms + ")");
        }
        this.syncTimeoutMs = ms;
        return this;
    }

    public FabricPlan plan() {
        return plan;
    }

    public LabLayout layout() {
        return layout;
    }

    /**
     * Null when this host can run a lab, else why not (not root, no ip command, no SRv6 in the
     * kernel). Tests skip with this message.
     */
    public static String hostProblem() {
        try {
            Object uid = Files.getAttribute(Path.of("/proc/self"), "unix:uid");
            if (!Integer.valueOf(0).equals(uid)) {
                return "network namespaces need root (uid is " + uid + ")";
            }
        } catch (Exception e) {
            return "cannot tell the uid (" + e.getMessage() + "): not Linux?";
        }
        try {
            new Shell().run("ip", "-V");
        } catch (LabException e) {
            return "iproute2 is missing (apt-get install -y iproute2): " + e.getMessage();
        }
        if (!Files.exists(Path.of("/proc/sys/net/ipv6/conf/all/seg6_enabled"))) {
            return "the kernel has no SRv6 (no net.ipv6.conf.all.seg6_enabled)";
        }
        String[][] tools = {
            {"nft", "--version", "nftables is missing (apt-get install -y nftables; EV routing marks packets with it)"},
            {"ping", "-V", "ping is missing (apt-get install -y iputils-ping; the lab's traffic checks use it)"},
            {"python3", "--version", "python3 is missing (apt-get install -y python3-minimal; EV traffic uses it)"},
        };
        for (String[] tool : tools) {
            try {
                new Shell().run(tool[0], tool[1]);
            } catch (LabException e) {
                return tool[2] + ": " + e.getMessage();
            }
        }
        try {
            new Shell().run("setsid", "--version");
        } catch (LabException e) {
            return "setsid is missing (apt-get install -y util-linux; switch agents run in their own session): "
                    + e.getMessage();
        }
        return SwitchAgentBinary.problem();
    }

    /**
     * Builds the lab. Whatever a crashed earlier run with the same tag left (agents, namespaces)
     * is removed first; if a step fails, the half-built lab is removed too and the error names the
     * failing command or switch. A JVM stopped mid-build (Ctrl-C) removes it from a shutdown hook.
     */
    public void up(Progress progress) throws LabException {
        down();
        Thread cleanup = new Thread(() -> {
            try {
                // No agent may start after the cleanup looked for agents: refuse new starts, wait for
                // the ones in flight (each ends within its readiness timeout), then remove everything.
                agentStarts.close();
                down();
            } catch (LabException | RuntimeException e) {
                System.err.println("lab " + layout.tag() + ": cleanup after interrupt failed: " + e.getMessage());
            }
        }, "weft-lab-cleanup");
        Runtime.getRuntime().addShutdownHook(cleanup);
        try {
            build(progress);
        } catch (LabException | RuntimeException e) {
            down();
            throw e;
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(cleanup);
            } catch (IllegalStateException shuttingDown) {
                // The hook is running or about to: it cleans up.
            }
        }
    }

    private void build(Progress progress) throws LabException {
        List<String> nodes = new ArrayList<>(layout.namespaces().keySet());
        int total = nodes.size();
        batch(null, script.namespaceLines());
        progress.step("namespaces created", total, total);
        // Before the veths exist, so their per-interface settings inherit the "default" ones.
        forEachNode(nodes, "sysctls set", 50, progress, node -> {
            List<String> cmd = new ArrayList<>(List.of("ip", "netns", "exec", layout.namespace(node), "sysctl", "-qw"));
            cmd.addAll(script.sysctls(node));
            shell.run(cmd, null);
        });
        batch(null, script.vethLines());
        progress.step("veth pairs created (" + plan.fabric().links().size() + ")", total, total);
        List<String> nics = plan.nics();
        forEachNode(nics, "NICs configured", 20, progress,
                node -> batch(layout.namespace(node), script.nicLines(node)));
        // Switches: everything (ports up, addresses, SIDs, underlay, VRFs, EV tables and nft) comes
        // from the intent over gNMI; the agent sets its own sysctls and anchor device.
        List<String> switches = plan.switches();
        Path binary = SwitchAgentBinary.locate();
        Path dir = labDir();
        Map<String, Integer> ports = new java.util.concurrent.ConcurrentHashMap<>();
        forEachNode(switches, "switch agents serving gNMI", 20, progress, sw -> {
            for (int attempt = 1; ; attempt++) {
                int port = SwitchAgents.freePort();
                try {
                    agentStarts.run(() -> SwitchAgents.start(binary, dir, layout, sw, port));
                    ports.put(sw, port);
                    break;
                } catch (LabException e) {
                    // A free port is free only when asked: another process, or another switch's agent
                    // started in parallel, can bind it first. Take a new one rather than fail the lab.
                    if (attempt == 3 || !String.valueOf(e.getMessage()).contains("address already in use")) {
                        throw e;
                    }
                }
            }
        });
        Map<String, Integer> ordered = new LinkedHashMap<>();
        switches.forEach(sw -> ordered.put(sw, ports.get(sw)));
        SwitchAgents.writeTargets(dir, ordered);
        writeGnmiFabric(dir, ordered);
        LabProvisioning.sync(plan, ordered, syncTimeoutMs, provisionerLog());
        progress.step("switches IN_SYNC over gNMI", switches.size(), switches.size());
    }

    /** The provisioner's state changes, one line each, appended to {@code <labDir>/provisioner.log}. */
    private java.util.function.Consumer<String> provisionerLog() {
        Path f = labDir().resolve("provisioner.log");
        return line -> {
            synchronized (this) {
                try {
                    Files.writeString(f, java.time.Instant.now() + " " + line + "\n",
                            java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
                } catch (java.io.IOException e) {
                    // Logging must not fail the build; the sync's own error still names the switch.
                }
            }
        };
    }

    /** The fabric with each switch's agent as its gnmi endpoint: a controller can take over from the lab. */
    private void writeGnmiFabric(Path dir, Map<String, Integer> ports) throws LabException {
        com.fasterxml.jackson.databind.node.ObjectNode tree = io.weft.fabric.FabricJson.toTree(plan.fabric());
        for (com.fasterxml.jackson.databind.JsonNode n : tree.path("nodes")) {
            Integer port = ports.get(n.path("id").asText());
            if (port != null) {
                ((com.fasterxml.jackson.databind.node.ObjectNode) n).putObject("gnmi")
                        .put("address", SwitchAgents.LOOPBACK).put("port", port);
            }
        }
        Path f = dir.resolve(GNMI_FABRIC_FILE);
        try {
            Files.writeString(f, io.weft.fabric.FabricJson.mapper().writerWithDefaultPrettyPrinter()
                    .writeValueAsString(tree) + "\n");
        } catch (java.io.IOException e) {
            throw new LabException("cannot write " + f + ": " + e.getMessage());
        }
    }

    /** One lab step for one node. */
    private interface NodeStep {
        void run(String node) throws LabException;
    }

    /**
     * Runs a step for every node on a few threads: each step is a child process that mostly waits
     * on the kernel, so a handful in flight hides the fork/exec latency. The first failure wins.
     */
    private void forEachNode(List<String> nodes, String what, int every, Progress progress, NodeStep step)
            throws LabException {
        int total = nodes.size();
        AtomicInteger done = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(
                Math.min(workers, Math.max(1, total)));
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (String node : nodes) {
                futures.add(pool.submit(() -> {
                    step.run(node);
                    int n = done.incrementAndGet();
                    if (n % every == 0 || n == total) {
                        synchronized (progress) {
                            progress.step(what, n, total);
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : futures) {
                f.get();
            }
        } catch (ExecutionException e) {
            if (e.getCause() instanceof LabException le) {
                throw le;
            }
            throw new LabException(what + ": " + e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LabException(what + ": interrupted");
        } finally {
            pool.shutdownNow();
        }
    }

    /** Stops this lab's switch agents, then deletes its namespaces (and with them veths and routes). Idempotent. */
    public void down() throws LabException {
        down(layout.tag(), shell, labDir());
    }

    /** As {@link #down(String, Shell, Path)}, finding the agents by their command lines only. */
    public static int down(String tag, Shell shell) throws LabException {
        return down(tag, shell, null);
    }

    /**
     * Deletes every namespace of the lab with this tag; returns how many there were. Idempotent.
     * Its switch agents are stopped first (pid files in {@code labDir}, which may be null, and any
     * weft-switch operating one of its namespaces): an agent holds its namespace, and with it the
     * switch's ports, alive after the name is gone.
     */
    public static int down(String tag, Shell shell, Path labDir) throws LabException {
        LabLayout.checkTag(tag);
        SwitchAgents.kill(tag, labDir);
        String prefix = LabLayout.prefix(tag);
        List<String> lines = new ArrayList<>();
        for (String ns : namespaces(shell)) {
            if (ns.startsWith(prefix)) {
                lines.add("netns del " + ns);
            }
        }
        if (!lines.isEmpty()) {
            // -force: keep deleting the rest if one vanished meanwhile (a parallel down).
            shell.exec(List.of("ip", "-force", "-batch", "-"), String.join("\n", lines) + "\n");
        }
        return lines.size();
    }

    /** Every lab namespace on this host (any tag), sorted. */
    public static List<String> namespaces(Shell shell) throws LabException {
        List<String> out = new ArrayList<>();
        for (String line : shell.run("ip", "netns", "list").split("\n")) {
            String name = line.strip().split("\\s+")[0];
            if (name.startsWith(LabLayout.PREFIX)) {
                out.add(name);
            }
        }
        out.sort(null);
        return out;
    }

    /**
     * Interface counters of a node, read from /sys/class/net inside its namespace: interface name
     * to {tx_packets, rx_packets, tx_bytes, rx_bytes}.
     */
    public Map<String, long[]> counters(String nodeId) throws LabException {
        String sh = "cd /sys/class/net && for i in *; do s=$i/statistics; "
                + "echo $i $(cat $s/tx_packets $s/rx_packets $s/tx_bytes $s/rx_bytes); done";
        String out = shell.run(List.of("ip", "netns", "exec", layout.namespace(nodeId), "sh", "-c", sh), null);
        Map<String, long[]> m = new LinkedHashMap<>();
        for (String line : out.split("\n")) {
            String[] f = line.strip().split("\\s+");
            if (f.length == 5) {
                m.put(f[0], new long[] {Long.parseLong(f[1]), Long.parseLong(f[2]), Long.parseLong(f[3]),
                        Long.parseLong(f[4])});
            }
        }
        return m;
    }

    /** Packets sent by {@code nodeId} on its end of a link. */
    public long txPackets(String nodeId, String linkId) throws LabException {
        String dev = layout.iface(linkId, nodeId);
        long[] c = counters(nodeId).get(dev);
        if (c == null) {
            throw new LabException(layout.namespace(nodeId) + ": no interface " + dev);
        }
        return c[0];
    }

    /** Packets sent along each arc (by its {@code from} end), in path order: one counter read per node. */
    public long[] txPackets(List<Arc> path) throws LabException {
        Map<String, Map<String, long[]>> byNode = new LinkedHashMap<>();
        long[] out = new long[path.size()];
        for (int i = 0; i < path.size(); i++) {
            Arc a = path.get(i);
            Map<String, long[]> c = byNode.get(a.from());
            if (c == null) {
                c = counters(a.from());
                byNode.put(a.from(), c);
            }
            long[] v = c.get(layout.iface(a.link().id(), a.from()));
            out[i] = v == null ? 0 : v[0];
        }
        return out;
    }

    /**
     * Steers srcNic's traffic to dstNic onto an encoded path: the host route the nic-agent
     * programs, {@code ip -6 route replace <dst>/128 encap seg6 mode encap.red segs c0,c1,... dev
     * <if> via <gw> proto 200}. The NIC sends on its link to the switch whose uN comes first (its
     * home link unless the path starts on another plane).
     */
    public void programPath(String srcNic, String dstNic, PathEncoding encoding) throws LabException {
        requireNic("srcNic", srcNic);
        requireNic("dstNic", dstNic);
        String first = plan.switchWithNodeId(encoding.usids()[0]);
        Link link = first == null ? null : plan.nicLink(first, srcNic);
        if (link == null) {
            throw new IllegalArgumentException("encoding: first uSID " + Integer.toHexString(encoding.usids()[0])
                    + " is not a switch linked to " + srcNic);
        }
        List<String> cmd = List.of("ip", "-n", layout.namespace(srcNic), "-6", "route", "replace",
                plan.nicAddress(dstNic) + "/128", "encap", "seg6", "mode", "encap.red",
                "segs", String.join(",", encoding.carriers()),
                "dev", layout.iface(link.id(), srcNic), "via", plan.linkLocal(link.id(), first),
                "proto", Integer.toString(ROUTE_PROTOCOL));
        shell.run(cmd, null);
    }

    /** Removes srcNic's encap route to dstNic (plain packets then follow EV routing). Idempotent. */
    public void clearPath(String srcNic, String dstNic) throws LabException {
        requireNic("srcNic", srcNic);
        requireNic("dstNic", dstNic);
        Shell.Result r = shell.exec(List.of("ip", "-n", layout.namespace(srcNic), "-6", "route", "del",
                plan.nicAddress(dstNic) + "/128", "proto", Integer.toString(ROUTE_PROTOCOL)), null);
        if (r.exitCode() != 0 && !r.stderr().contains("No such process")) {
            throw new LabException("route del on " + srcNic + ": " + r.stderr().strip());
        }
    }

    /**
     * Sends srcNic's UDP packets to dstNic with source port {@code ev} out of its link
     * {@code linkId} (another plane's port), as the nic-agent steers a udp-sport entry naming that
     * port: {@code ip -6 rule add pref 110 to <dst>/128 ipproto udp sport <ev> lookup <table> proto 200}
     * into a table holding {@code default dev <if> via <leaf>}, one table per port.
     */
    public void steerEv(String srcNic, String dstNic, int ev, String linkId) throws LabException {
        requireNic("srcNic", srcNic);
        requireNic("dstNic", dstNic);
        int rank = 0;
        Arc port = null;
        for (Arc a : plan.fabric().arcsFrom(srcNic)) {
            if (a.link().id().equals(linkId)) {
                port = a;
                break;
            }
            rank++;
        }
        if (port == null) {
            throw new IllegalArgumentException("linkId: \"" + linkId + "\" is not a link of " + srcNic);
        }
        String ns = layout.namespace(srcNic);
        String table = Integer.toString(STEER_TABLE + rank);
        shell.run(List.of("ip", "-n", ns, "-6", "route", "replace", "default", "dev", layout.iface(linkId, srcNic),
                "via", plan.linkLocal(linkId, port.to()), "table", table, "proto", Integer.toString(ROUTE_PROTOCOL)),
                null);
        shell.run(List.of("ip", "-n", ns, "-6", "rule", "add", "pref", "110", "to", plan.nicAddress(dstNic) + "/128",
                "ipproto", "udp", "sport", Integer.toString(ev), "lookup", table, "proto",
                Integer.toString(ROUTE_PROTOCOL)), null);
    }

    /**
     * Sends {@code count} UDP datagrams (64 bytes, to the RoCEv2 port 4791) from srcNic to dstNic
     * with source port = {@code ev}, hop limit 64: what a RoCEv2 NIC in EV mode puts on the wire.
     * Needs python3 in the lab host (a socket bound to the EV as source port).
     */
    public void sendUdp(String srcNic, String dstNic, int ev, int count) throws LabException {
        requireNic("srcNic", srcNic);
        requireNic("dstNic", dstNic);
        if (ev < 1 || ev > 0xFFFF) {
            throw new IllegalArgumentException("ev: must be in 1..65535 (got " + ev + ")");
        }
        if (count < 1 || count > 1_000_000) {
            throw new IllegalArgumentException("count: must be in 1..1000000 (got " + count + ")");
        }
        String py = "import socket\n"
                + "s = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)\n"
                + "s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_UNICAST_HOPS, 64)\n"
                + "s.bind(('::', " + ev + "))\n"
                + "for _ in range(" + count + "):\n"
                + "    s.sendto(b'w' * 64, ('" + plan.nicAddress(dstNic) + "', 4791))\n";
        shell.run(List.of("ip", "netns", "exec", layout.namespace(srcNic), "python3", "-c", py), null);
    }

    /** The encap route srcNic has towards dstNic, as `ip -6 route show` prints it, or "" if none. */
    public String route(String srcNic, String dstNic) throws LabException {
        return shell.run("ip", "-n", layout.namespace(srcNic), "-6", "route", "show",
                plan.nicAddress(dstNic) + "/128").strip();
    }

    /** Pings dstNic's address from srcNic's namespace ({@code count} packets, {@code intervalS} apart). */
    public PingResult ping(String srcNic, String dstNic, int count, double intervalS) throws LabException {
        return ping(srcNic, dstNic, count, intervalS, List.of());
    }

    private PingResult ping(String srcNic, String dstNic, int count, double intervalS, List<String> extra)
            throws LabException {
        requireNic("srcNic", srcNic);
        requireNic("dstNic", dstNic);
        if (count < 1) {
            throw new IllegalArgumentException("count: must be at least 1 (got " + count + ")");
        }
        List<String> cmd = new ArrayList<>(List.of("ip", "netns", "exec", layout.namespace(srcNic), "ping", "-6", "-q",
                "-c", Integer.toString(count), "-i", String.format(Locale.ROOT, "%.3f", intervalS), "-W", "1"));
        cmd.addAll(extra);
        cmd.add(plan.nicAddress(dstNic));
        Shell.Result r = shell.exec(cmd, null);
        Matcher m = PING_SUMMARY.matcher(r.stdout());
        if (!m.find()) {
            String said = (r.stderr().strip() + " " + r.stdout().strip()).strip();
            throw new LabException("ping from " + srcNic + ": no summary (" + said + ")");
        }
        return new PingResult(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)), r.stdout());
    }

    /**
     * Pings with {@code sizeBytes} of ICMP payload (ping -s) and {@code preload} packets sent
     * without waiting for replies (ping -l): enough offered load to overflow a shaped port.
     */
    public PingResult ping(String srcNic, String dstNic, int count, double intervalS, int sizeBytes, int preload)
            throws LabException {
        if (sizeBytes < 0 || sizeBytes > 9000) {
            throw new IllegalArgumentException("sizeBytes: must be in 0..9000 (got " + sizeBytes + ")");
        }
        if (preload < 1 || preload > 65536) {
            throw new IllegalArgumentException("preload: must be in 1..65536 (got " + preload + ")");
        }
        return ping(srcNic, dstNic, count, intervalS, List.of("-s", Integer.toString(sizeBytes),
                "-l", Integer.toString(preload)));
    }

    /**
     * Takes a link down (or up again) at both ends, as a failed cable would: both ports
     * admin-down. Down, the kernel drops the ports' addresses and every route through them (ECMP
     * routes lose that next hop), so the underlay avoids the link by itself. Up, a switch's agent
     * re-installs its addresses and routes from its last Set (as a NOS does); this call then reads
     * each switch end back over gNMI and waits for IN_SYNC, so the link carries traffic when it
     * returns. A NIC end is set again from the plan. NIC encap routes over a NIC's downed link are
     * gone for good: as on a real host, whoever placed the flow must program it again.
     */
    public void setLink(String linkId, boolean up) throws LabException {
        Link l = requireLink(linkId);
        for (String node : List.of(l.a().node(), l.b().node())) {
            shell.run("ip", "-n", layout.namespace(node), "link", "set", "dev", layout.iface(linkId, node),
                    up ? "up" : "down");
        }
        if (!up) {
            return;
        }
        Map<String, Integer> agents = SwitchAgents.readTargets(labDir());
        Map<String, Integer> ends = new LinkedHashMap<>();
        for (String node : List.of(l.a().node(), l.b().node())) {
            if (plan.fabric().node(node).role().isSwitch()) {
                Integer port = agents.get(node);
                if (port == null) {
                    throw new LabException("switch " + node + ": no gNMI agent in "
                            + labDir().resolve(SwitchAgents.TARGETS_FILE) + " (lab built by another state directory?)");
                }
                ends.put(node, port);
            } else {
                batch(layout.namespace(node), script.reapplyLines(node));
            }
        }
        if (!ends.isEmpty()) {
            LabProvisioning.sync(plan, ends, syncTimeoutMs, provisionerLog());
        }
    }

    /**
     * Limits what {@code nodeId} sends on its end of a link with a token bucket (the only shaper
     * this kernel has: no RED, fq_codel or netem), making a hotspot that shows up as qdisc drops
     * and overlimits. The burst covers at least 4 ms at the rate, so high rates are not starved by
     * timer granularity.
     */
    public void shape(String nodeId, String linkId, double rateMbit) throws LabException {
        shape(nodeId, linkId, rateMbit, 20);
    }

    /**
     * As {@link #shape(String, String, double)} with the TBF's queue limit given as {@code latencyMs}
     * of the rate: a short queue drops an excess at once instead of buffering it (20 ms absorbs a
     * 100 ms burst 10 % over the rate without a drop).
     */
    public void shape(String nodeId, String linkId, double rateMbit, int latencyMs) throws LabException {
        requireLink(linkId);
        if (latencyMs < 1 || latencyMs > 1000) {
            throw new IllegalArgumentException("latencyMs: must be 1..1000 (got " + latencyMs + ")");
        }
        if (!(rateMbit > 0 && rateMbit <= 400_000)) {
            throw new IllegalArgumentException("rateMbit: must be in (0, 400000] (got " + rateMbit + ")");
        }
        long burstBytes = Math.max(16 * 1024, (long) (rateMbit * 1e6 / 8 * 0.004));
        shell.run("tc", "-n", layout.namespace(nodeId), "qdisc", "replace", "dev", layout.iface(linkId, nodeId),
                "root", "tbf", "rate", String.format(Locale.ROOT, "%.3fmbit", rateMbit),
                "burst", Long.toString(burstBytes), "latency", latencyMs + "ms");
    }

    /** Removes the shaper (back to the default qdisc). Idempotent. */
    public void unshape(String nodeId, String linkId) throws LabException {
        requireLink(linkId);
        Shell.Result r = shell.exec(List.of("tc", "-n", layout.namespace(nodeId), "qdisc", "del", "dev",
                layout.iface(linkId, nodeId), "root"), null);
        if (r.exitCode() != 0 && !r.stderr().contains("Cannot delete qdisc with handle of zero")
                && !r.stderr().contains("No such file")) {
            throw new LabException("tc qdisc del on " + nodeId + " " + linkId + ": " + r.stderr().strip());
        }
    }

    /** The root qdisc's counters on {@code nodeId}'s end of a link. */
    public QdiscStats qdisc(String nodeId, String linkId) throws LabException {
        requireLink(linkId);
        String json = shell.run("tc", "-n", layout.namespace(nodeId), "-s", "-j", "qdisc", "show", "dev",
                layout.iface(linkId, nodeId));
        try {
            for (com.fasterxml.jackson.databind.JsonNode q : io.weft.fabric.FabricJson.mapper().readTree(json)) {
                if (q.path("root").asBoolean(false)) {
                    return new QdiscStats(q.path("kind").asText(), q.path("packets").asLong(), q.path("drops").asLong(),
                            q.path("overlimits").asLong(), q.path("backlog").asLong());
                }
            }
        } catch (java.io.IOException e) {
            throw new LabException("tc -j qdisc show: unreadable output (" + e.getMessage() + ")");
        }
        throw new LabException(nodeId + " " + linkId + ": no root qdisc");
    }

    private Link requireLink(String linkId) {
        Link l = plan.fabric().link(linkId);
        if (l == null) {
            throw new IllegalArgumentException("link: \"" + linkId + "\" is not a link of fabric "
                    + plan.fabric().id());
        }
        return l;
    }

    private void requireNic(String field, String nodeId) {
        Node n = plan.fabric().node(nodeId);
        if (n == null || n.role().isSwitch()) {
            throw new IllegalArgumentException(field + ": \"" + nodeId + "\" is not a NIC of fabric "
                    + plan.fabric().id());
        }
    }

    /** Runs batch lines with `ip -6 [-n ns] -batch -`; a failure names the line the kernel refused. */
    private void batch(String ns, List<String> lines) throws LabException {
        List<String> cmd = new ArrayList<>(List.of("ip", "-6"));
        if (ns != null) {
            cmd.add("-n");
            cmd.add(ns);
        }
        cmd.add("-batch");
        cmd.add("-");
        Shell.Result r = shell.exec(cmd, String.join("\n", lines) + "\n");
        if (r.exitCode() != 0) {
            String err = r.stderr().strip();
            Matcher m = BATCH_FAILED.matcher(err);
            String line = "";
            if (m.find()) {
                int i = Integer.parseInt(m.group(1)) - 1;
                line = i >= 0 && i < lines.size() ? " at \"" + lines.get(i) + "\"" : "";
            }
            throw new LabException((ns == null ? "root namespace" : ns) + line + ": "
                    + err.replace('\n', ' ').replaceAll("\\s*Command failed -:\\d+", ""));
        }
    }
}
