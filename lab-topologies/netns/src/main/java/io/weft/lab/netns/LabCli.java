package io.weft.lab.netns;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import com.fasterxml.jackson.databind.JsonNode;
import io.weft.fabric.Arc;
import io.weft.fabric.Fabric;
import io.weft.fabric.FabricFormatException;
import io.weft.fabric.FabricJson;
import io.weft.fabric.FabricValidator;
import io.weft.plan.FabricPlan;
import io.weft.plan.PathEncoder;
import io.weft.plan.PathEncoding;
import io.weft.plan.PlanException;
import io.weft.plan.Planner;
import io.weft.plan.SnapshotJson;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParseResult;

/**
 * {@code ./weft lab}: build a fabric in network namespaces, ping across it on a chosen path, show
 * and delete labs. {@code up} saves the fabric and its plan (as the weft.fabric snapshot) under
 * the state directory, so later commands use exactly the plan the lab was built from.
 *
 * <p>Exit codes: 0 ok; 2 bad arguments or input; 1 a lab step failed (pings lost included).
 */
public final class LabCli {
    static final String DEFAULT_TAG = "lab";
    static final String HELP = String.join("\n",
            "usage: ./weft lab up <fabric.json> [--tag T]      build the fabric in namespaces wl-<T>-<node>",
            "                     [--workers N]                namespaces configured at once (default "
                    + NetnsLab.DEFAULT_WORKERS + ")",
            "       ./weft lab down [--tag T | --all]            delete a lab's namespaces (idempotent)",
            "       ./weft lab ping <srcNic> <dstNic> [--via sw1,sw2,...] [--count N] [--ev] [--tag T]",
            "                                                    place, program both ways, ping, show counters;",
            "                                                    --ev: no encap route, send UDP with the path's EV",
            "       ./weft lab status [--tag T]                  labs on this host (with --tag: port map)",
            "       ./weft lab link <linkId> up|down [--tag T]   fail or restore a link (both ends)",
            "       ./weft lab shape <node> <linkId> <Mbit/s>|off [--tag T]",
            "                                                    token bucket on node's end of the link; prints",
            "                                                    the qdisc counters (drops, overlimits)",
            "tags: 1-8 lowercase letters or digits (default " + DEFAULT_TAG + ")",
            "needs root, iproute2, ping, nftables (and python3 for --ev)",
            "exit codes: 0 ok, 2 bad arguments or input, 1 a lab step failed") + "\n";

    private final Path stateDir;
    private final Shell shell;
    private final PrintStream out;

    LabCli(Path stateDir, Shell shell, PrintStream out) {
        this.stateDir = stateDir;
        this.shell = shell;
        this.out = out;
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /** Runs one command; never throws. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        try {
            List<String> words = Arrays.asList(args);
            if (words.isEmpty() || words.contains("--help") || words.contains("-h") || words.get(0).equals("help")) {
                (words.isEmpty() ? err : out).print(HELP);
                return words.isEmpty() ? 2 : 0;
            }
            CommandLine line = new CommandLine(new Verbs());
            if (!line.getSubcommands().containsKey(words.get(0))) {
                throw new IllegalArgumentException("unknown command \"" + words.get(0) + "\" (see ./weft lab --help)");
            }
            ParseResult parsed;
            try {
                parsed = line.parseArgs(args);
            } catch (ParameterException e) {
                throw new IllegalArgumentException(e.getMessage() + " (see ./weft lab --help)");
            }
            Verb verb = (Verb) parsed.subcommand().commandSpec().userObject();
            LabLayout.checkTag(verb.common().tag());
            return verb.run(new LabCli(verb.common().state, new Shell(), out));
        } catch (IllegalArgumentException e) {
            err.println(e.getMessage());
            return 2;
        } catch (LabException e) {
            err.println("lab: " + e.getMessage());
            return 1;
        } catch (RuntimeException e) {
            err.println("internal error: " + e.getClass().getSimpleName()
                    + (e.getMessage() == null ? "" : ": " + e.getMessage().replace('\n', ' ')));
            return 1;
        }
    }

    private static void requireHost() throws LabException {
        String problem = NetnsLab.hostProblem();
        if (problem != null) {
            throw new LabException(problem);
        }
    }

    int up(Path file, String tag, int workers) throws LabException {
        Fabric fabric;
        FabricPlan plan;
        try {
            fabric = FabricJson.read(file);
            List<String> problems = FabricValidator.validate(fabric);
            if (!problems.isEmpty()) {
                throw new IllegalArgumentException(file + ": " + String.join("\n" + file + ": ", problems));
            }
            plan = Planner.plan(fabric, null);
        } catch (FabricFormatException e) {
            throw new IllegalArgumentException(file + ": " + e.getMessage());
        } catch (PlanException e) {
            throw new IllegalArgumentException(file + ": plan: " + e.getMessage());
        }
        NetnsLab lab = new NetnsLab(plan, tag, shell).stateDir(stateDir).workers(workers);
        int nodes = lab.layout().namespaces().size();
        out.printf("lab \"%s\": building %s (%d namespaces, %d links)%n", tag, fabric.id(), nodes,
                fabric.links().size());
        long t0 = System.nanoTime();
        lab.up((what, done, total) -> out.printf("  %s: %d of %d%n", what, done, total));
        double s = (System.nanoTime() - t0) / 1e9;
        saveState(tag, plan);
        out.printf(Locale.ROOT, "lab \"%s\": up in %.2f s (%.0f namespaces/s); try: ./weft lab ping %s %s --tag %s%n",
                tag, s, nodes / s, plan.nics().get(0), plan.nics().get(plan.nics().size() - 1), tag);
        out.printf("lab \"%s\": switches configured over gNMI by their agents (%s); a controller can take over"
                + " with ./weft controller --fabric %s%n", tag, lab.labDir().resolve(SwitchAgents.TARGETS_FILE),
                lab.labDir().resolve(NetnsLab.GNMI_FABRIC_FILE));
        return 0;
    }

    int down(String tag) throws LabException {
        List<String> tags = new ArrayList<>();
        if (tag != null) {
            tags.add(tag);
        } else {
            tags.addAll(labs().keySet());
        }
        for (String t : tags) {
            int n = NetnsLab.down(t, shell, stateDir.resolve(t));
            deleteState(t);
            out.printf("lab %s: %d namespaces deleted%n", t, n);
        }
        if (tags.isEmpty()) {
            out.println("no labs");
        }
        return 0;
    }

    int ping(String tag, String src, String dst, List<String> via, int count, String tenantOrNull, boolean ev)
            throws LabException {
        FabricPlan plan = loadState(tag);
        NetnsLab lab = new NetnsLab(plan, tag, shell);
        String tenant = tenantOrNull != null ? tenantOrNull : plan.tenants().get(0);
        List<Arc> path = via != null ? LabPaths.via(plan, src, dst, via) : LabPaths.shortest(plan, src, dst);
        PathEncoding there;
        PathEncoding back;
        try {
            there = PathEncoder.encode(plan, path, tenant);
            back = PathEncoder.encode(plan, LabPaths.reverse(path), tenant);
        } catch (PlanException e) {
            throw new IllegalArgumentException("path: " + e.getMessage());
        }
        if (ev) {
            if (there.ev() == null) {
                throw new IllegalArgumentException("path: EV routing cannot reach it (" + there + ")");
            }
            lab.clearPath(src, dst);
            out.printf("%s -> %s: EV 0x%04x (UDP source port), no encap route%n", src, dst, there.ev());
        } else {
            lab.programPath(src, dst, there);
            lab.programPath(dst, src, back);
            out.printf("%s -> %s: %s%n", src, dst, there);
            out.printf("  route: %s%n", lab.route(src, dst));
        }
        // The path's switches' other switch links (the replies use the path's links backwards):
        // where the traffic would show up if steering failed.
        Set<String> pathLinks = new java.util.HashSet<>();
        path.forEach(a -> pathLinks.add(a.link().id()));
        List<Arc> others = new ArrayList<>();
        for (Arc a : path.subList(1, path.size())) {
            for (Arc o : plan.switchArcs(a.from())) {
                if (!pathLinks.contains(o.link().id())) {
                    others.add(o);
                }
            }
        }
        long[] before = lab.txPackets(path);
        long[] othersBefore = lab.txPackets(others);
        NetnsLab.PingResult r;
        if (ev) {
            lab.sendUdp(src, dst, there.ev(), count);
            r = null;
        } else {
            r = lab.ping(src, dst, count, 0.01);
        }
        long[] after = lab.txPackets(path);
        long[] othersAfter = lab.txPackets(others);
        long delivered = after[path.size() - 1] - before[path.size() - 1];
        if (r != null) {
            out.printf("ping: %d sent, %d received%n", r.sent(), r.received());
        } else {
            out.printf("udp: %d sent, %d delivered to %s's port%n", count, delivered, dst);
        }
        out.println("tx packets along the path (delta):");
        int width = 0;
        for (Arc a : path) {
            width = Math.max(width, a.from().length() + a.to().length() + 4);
        }
        for (int i = 0; i < path.size(); i++) {
            Arc a = path.get(i);
            out.printf("  %-" + width + "s %-28s %-5s %8d%n", a.from() + " -> " + a.to(), a.link().id(),
                    lab.layout().iface(a.link().id(), a.from()), after[i] - before[i]);
        }
        if (!others.isEmpty()) {
            StringBuilder b = new StringBuilder("tx packets on the other switch links of these switches (delta):");
            for (int i = 0; i < others.size(); i++) {
                b.append(i % 4 == 0 ? "\n   " : ",").append(' ').append(others.get(i).from()).append(" -> ")
                        .append(others.get(i).to()).append(' ').append(othersAfter[i] - othersBefore[i]);
            }
            out.println(b);
        }
        return (r != null ? r.received() == r.sent() : delivered >= count) ? 0 : 1;
    }

    int link(String tag, String linkId, String state) throws LabException {
        if (!state.equals("up") && !state.equals("down")) {
            throw new IllegalArgumentException("link state: \"" + state + "\" must be up or down");
        }
        NetnsLab lab = new NetnsLab(loadState(tag), tag, shell).stateDir(stateDir);
        lab.setLink(linkId, state.equals("up"));
        out.printf("link %s: %s%s%n", linkId, state, state.equals("up")
                ? " (addresses and routes of both ends set again)"
                : " (routes through it are gone; NIC routes over it need programming again)");
        return 0;
    }

    int shape(String tag, String node, String linkId, String rate) throws LabException {
        NetnsLab lab = new NetnsLab(loadState(tag), tag, shell);
        if (lab.plan().fabric().node(node) == null) {
            throw new IllegalArgumentException("node: \"" + node + "\" is not in fabric " + lab.plan().fabric().id());
        }
        if (rate.equals("off")) {
            lab.unshape(node, linkId);
        } else {
            double mbit;
            try {
                mbit = Double.parseDouble(rate);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("rate: \"" + rate + "\" must be Mbit/s (a number) or off");
            }
            lab.shape(node, linkId, mbit);
        }
        NetnsLab.QdiscStats q = lab.qdisc(node, linkId);
        out.printf("%s %s (%s): qdisc %s, %d packets, %d dropped, %d overlimits, backlog %d bytes%n", node, linkId,
                lab.layout().iface(linkId, node), q.kind(), q.packets(), q.drops(), q.overlimits(), q.backlogBytes());
        return 0;
    }

    int status(String onlyTag) throws LabException {
        Map<String, Integer> labs = labs();
        if (labs.isEmpty() && onlyTag == null) {
            out.println("no labs (namespaces wl-*)");
            return 0;
        }
        for (Map.Entry<String, Integer> e : labs.entrySet()) {
            if (onlyTag != null && !onlyTag.equals(e.getKey())) {
                continue;
            }
            String fabric = Files.exists(snapshot(e.getKey())) ? fabricIdOr(e.getKey())
                    : "(no state: leftover, ./weft lab down --tag " + e.getKey() + ")";
            out.printf("lab %s: %d namespaces, fabric %s%n", e.getKey(), e.getValue(), fabric);
        }
        if (onlyTag != null) {
            if (!labs.containsKey(onlyTag)) {
                out.printf("lab %s: not running%n", onlyTag);
                return 1;
            }
            LabLayout layout = new LabLayout(loadState(onlyTag).fabric(), onlyTag);
            out.println("ports (node, fabric port, veth):");
            layout.portMap().forEach(l -> out.println("  " + l));
        }
        return 0;
    }

    /** Tag to namespace count, from the namespaces on this host. */
    private Map<String, Integer> labs() throws LabException {
        Map<String, Integer> out = new TreeMap<>();
        for (String ns : NetnsLab.namespaces(shell)) {
            String rest = ns.substring(LabLayout.PREFIX.length());
            int dash = rest.indexOf('-');
            if (dash > 0) {
                out.merge(rest.substring(0, dash), 1, Integer::sum);
            }
        }
        return out;
    }

    private Path snapshot(String tag) {
        return stateDir.resolve(tag).resolve("snapshot.json");
    }

    private void saveState(String tag, FabricPlan plan) throws LabException {
        try {
            Files.createDirectories(snapshot(tag).getParent());
            Files.writeString(snapshot(tag), FabricJson.mapper().writeValueAsString(
                    SnapshotJson.toTree(plan, Map.of(), 1)));
        } catch (IOException e) {
            throw new LabException("cannot save the lab's plan to " + snapshot(tag) + ": " + e.getMessage());
        }
    }

    private void deleteState(String tag) throws LabException {
        try {
            // The plan, the agents' logs and pid files, the gNMI endpoint files: the whole lab dir.
            Path dir = snapshot(tag).getParent();
            if (Files.isDirectory(dir)) {
                try (var files = Files.walk(dir)) {
                    for (Path f : (Iterable<Path>) files.sorted(java.util.Comparator.reverseOrder())::iterator) {
                        Files.deleteIfExists(f);
                    }
                }
            }
        } catch (IOException e) {
            throw new LabException("cannot delete " + snapshot(tag).getParent() + ": " + e.getMessage());
        }
    }

    private FabricPlan loadState(String tag) throws LabException {
        try {
            JsonNode tree = FabricJson.mapper().readTree(Files.readString(snapshot(tag)));
            return SnapshotJson.planFromTree(tree);
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException("lab " + tag + ": not up (no " + snapshot(tag) + "); run ./weft lab up"
                    + " <fabric.json> --tag " + tag);
        } catch (IOException | PlanException e) {
            throw new LabException("lab " + tag + ": unreadable state " + snapshot(tag) + ": " + e.getMessage());
        }
    }

    private String fabricIdOr(String tag) {
        try {
            return loadState(tag).fabric().id();
        } catch (LabException | RuntimeException e) {
            return "(state unreadable)";
        }
    }

    private static int inRange(int n, String flag, int min, int max) {
        if (n < min || n > max) {
            throw new IllegalArgumentException(flag + ": must be a whole number in " + min + ".." + max
                    + " (got \"" + n + "\")");
        }
        return n;
    }

    // ── the verbs, as picocli binds them ──────────────────────────────────────────────────────

    /** What every verb takes. */
    static final class Common {
        @Option(names = "--tag", paramLabel = "T", description = "the lab (namespaces wl-<T>-<node>)")
        String tag; // null: not given (status then lists every lab)

        @Option(names = "--state", paramLabel = "DIR", description = "where labs keep their plan (default .weft/lab)")
        Path state = Path.of(".weft/lab");

        String tag() {
            return tag != null ? tag : DEFAULT_TAG;
        }
    }

    /** One verb: the options every verb takes (one mixin, declared here once); runs on a LabCli for its --state. */
    abstract static class Verb {
        @Mixin
        Common common;

        final Common common() {
            return common;
        }

        public abstract int run(LabCli cli) throws LabException;
    }

    @Command(name = "lab", subcommands = {Up.class, Down.class, Ping.class, Status.class, LinkVerb.class,
        Shape.class})
    static final class Verbs {
    }

    @Command(name = "up")
    static final class Up extends Verb {
        @Parameters(index = "0", paramLabel = "fabric.json")
        Path fabric;

        @Option(names = "--workers", paramLabel = "N")
        int workers = NetnsLab.DEFAULT_WORKERS;

        @Override
        public int run(LabCli cli) throws LabException {
            inRange(workers, "--workers", 1, 64);
            requireHost();
            return cli.up(fabric, common.tag(), workers);
        }
    }

    @Command(name = "down")
    static final class Down extends Verb {
        @Option(names = "--all", description = "every lab on this host")
        boolean all;

        @Override
        public int run(LabCli cli) throws LabException {
            requireHost();
            return cli.down(all ? null : common.tag());
        }
    }

    @Command(name = "ping")
    static final class Ping extends Verb {
        @Parameters(index = "0", paramLabel = "srcNic")
        String src;

        @Parameters(index = "1", paramLabel = "dstNic")
        String dst;

        @Option(names = "--via", split = ",", paramLabel = "sw1,sw2,...")
        List<String> via;

        @Option(names = "--count", paramLabel = "N")
        int count = 20;

        @Option(names = "--tenant", paramLabel = "T")
        String tenant;

        @Option(names = "--ev", description = "no encap route: send UDP with the path's EV")
        boolean ev;

        @Override
        public int run(LabCli cli) throws LabException {
            inRange(count, "--count", 1, 10_000);
            requireHost();
            return cli.ping(common.tag(), src, dst, via, count, tenant, ev);
        }
    }

    @Command(name = "status")
    static final class Status extends Verb {
        @Override
        public int run(LabCli cli) throws LabException {
            return cli.status(common.tag); // without --tag: every lab; with it, that lab's port map
        }
    }

    @Command(name = "link")
    static final class LinkVerb extends Verb {
        @Parameters(index = "0", paramLabel = "linkId")
        String linkId;

        @Parameters(index = "1", paramLabel = "up|down")
        String state;

        @Override
        public int run(LabCli cli) throws LabException {
            requireHost();
            return cli.link(common.tag(), linkId, state);
        }
    }

    @Command(name = "shape")
    static final class Shape extends Verb {
        @Parameters(index = "0", paramLabel = "node")
        String node;

        @Parameters(index = "1", paramLabel = "linkId")
        String linkId;

        @Parameters(index = "2", paramLabel = "Mbit/s|off")
        String rate;

        @Override
        public int run(LabCli cli) throws LabException {
            requireHost();
            return cli.shape(common.tag(), node, linkId, rate);
        }
    }
}
