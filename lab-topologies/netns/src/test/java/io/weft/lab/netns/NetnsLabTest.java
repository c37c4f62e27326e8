package io.weft.lab.netns;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.weft.fabric.Arc;
import io.weft.fabric.Fabric;
import io.weft.fabric.FabricJson;
import io.weft.lab.fabric.FatTreeGenerator;
import io.weft.lab.fabric.LeafSpineGenerator;
import io.weft.lab.fabric.RailGenerator;
import io.weft.plan.FabricPlan;
import io.weft.plan.PathEncoder;
import io.weft.plan.PathEncoding;
import io.weft.plan.Planner;
import io.weft.plan.intent.DeviceIntent;
import io.weft.southbound.gnmi.DeviceState;
import io.weft.southbound.gnmi.GnmiTarget;
import io.weft.southbound.gnmi.NettyChannels;
import io.weft.southbound.gnmi.Provisioner;
import io.weft.southbound.gnmi.ProvisionerConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The plan on the kernel's SRv6 data plane: real namespaces, real End / End.X / End.DT6 routes,
 * host encap routes shaped like the nic-agent's. Assertions are on interface counters.
 */
@Tag("lab")
class NetnsLabTest {
    private static final int PINGS = 50;
    /** ND, MLD and router solicitations may add a few packets on an idle link; traffic adds >= PINGS. */
    private static final int IDLE_NOISE = 5;

    /** This JVM's suffix: two test runs at once (CI and a developer) never share a lab tag. */
    private static final String RUN = Long.toString(ProcessHandle.current().pid() % (36L * 36 * 36 * 36), 36);

    /** Agents' logs and pid files stay under target/, so mvn clean removes them. */
    private static final Path STATE = Path.of("target", "lab-state");

    private NetnsLab lab;

    private static String tag(String test) {
        return test + RUN;
    }

    @BeforeEach
    void requireHost() {
        LabHost.require();
    }

    @AfterEach
    void tearDown() throws Exception {
        if (lab != null) {
            lab.down();
            assertThat(NetnsLab.namespaces(new Shell()))
                    .noneMatch(ns -> ns.startsWith(LabLayout.prefix(lab.layout().tag())));
        }
    }

    private NetnsLab up(Fabric fabric, String tag) throws Exception {
        FabricPlan plan = Planner.plan(fabric, null);
        lab = new NetnsLab(plan, tag).stateDir(STATE);
        lab.up(NetnsLab.Progress.NONE);
        return lab;
    }

    /** Programs both directions over the path and returns tx deltas along the forward path. */
    private long[] pingOver(List<Arc> path, int expectReplies) throws Exception {
        FabricPlan plan = lab.plan();
        String src = path.get(0).from();
        String dst = path.get(path.size() - 1).to();
        String tenant = plan.tenants().get(0);
        lab.programPath(src, dst, PathEncoder.encode(plan, path, tenant));
        lab.programPath(dst, src, PathEncoder.encode(plan, LabPaths.reverse(path), tenant));
        long[] before = lab.txPackets(path);
        NetnsLab.PingResult r = lab.ping(src, dst, PINGS, 0.01);
        long[] after = lab.txPackets(path);
        assertThat(r.received()).as("replies from %s to %s\n%s", dst, src, r.output()).isEqualTo(expectReplies);
        long[] d = new long[path.size()];
        for (int i = 0; i < d.length; i++) {
            d[i] = after[i] - before[i];
        }
        return d;
    }

    @Test
    void leafSpine2x2SteersBySpineAndMovesWhenReprogrammed() throws Exception {
        up(FabricJson.read(Path.of("../../contracts/examples/leaf-spine-2x2.json")), tag("ls"));
        FabricPlan plan = lab.plan();
        List<Arc> viaA = LabPaths.via(plan, "nic1", "nic3", List.of("leaf1", "spine1", "leaf2"));
        List<Arc> viaB = LabPaths.via(plan, "nic1", "nic3", List.of("leaf1", "spine2", "leaf2"));
        assertThat(PathEncoder.encode(plan, viaA, "default").carriers()).containsExactly("fcbb:bb00:1:11:2:e000::");

        long[] before = lab.txPackets(viaB);
        long[] a = pingOver(viaA, PINGS);
        long[] idleB = delta(before, lab.txPackets(viaB));
        assertThat(lab.route("nic1", "nic3")).contains("segs 1 [ fcbb:bb00:1:11:2:e000:: ]");
        // Every arc of the path carried the requests: NIC->leaf1, leaf1->spine1, spine1->leaf2, leaf2->NIC.
        assertThat(boxed(a)).allSatisfy(d -> assertThat(d).isGreaterThanOrEqualTo(PINGS));
        // leaf1->spine2 and spine2->leaf2 stayed idle.
        assertThat(idleB[1]).isLessThanOrEqualTo(IDLE_NOISE);
        assertThat(idleB[2]).isLessThanOrEqualTo(IDLE_NOISE);

        before = lab.txPackets(viaA);
        long[] b = pingOver(viaB, PINGS);
        long[] idleA = delta(before, lab.txPackets(viaA));
        assertThat(boxed(b)).allSatisfy(d -> assertThat(d).isGreaterThanOrEqualTo(PINGS));
        assertThat(idleA[1]).isLessThanOrEqualTo(IDLE_NOISE);
        assertThat(idleA[2]).isLessThanOrEqualTo(IDLE_NOISE);
    }

    /** Sends UDP with the path's EV (no encap route) and returns tx deltas along the path. */
    private long[] sendEvOver(List<Arc> path, int count) throws Exception {
        FabricPlan plan = lab.plan();
        String src = path.get(0).from();
        String dst = path.get(path.size() - 1).to();
        Integer ev = PathEncoder.encode(plan, path, plan.tenants().get(0)).ev();
        assertThat(ev).as("EV of %s", path).isNotNull();
        lab.clearPath(src, dst);
        long[] before = lab.txPackets(path);
        lab.sendUdp(src, dst, ev, count);
        return delta(before, lab.txPackets(path));
    }

    @Test
    void entropyValueAloneSteersBySpine() throws Exception {
        up(FabricJson.read(Path.of("../../contracts/examples/leaf-spine-2x2.json")), tag("ev"));
        FabricPlan plan = lab.plan();
        List<Arc> viaA = LabPaths.via(plan, "nic1", "nic3", List.of("leaf1", "spine1", "leaf2"));
        List<Arc> viaB = LabPaths.via(plan, "nic1", "nic3", List.of("leaf1", "spine2", "leaf2"));
        List<List<Arc>> paths = List.of(viaA, viaB);
        for (int i = 0; i < 2; i++) {
            List<Arc> used = paths.get(i);
            List<Arc> other = paths.get(1 - i);
            long[] idleBefore = lab.txPackets(other);
            long[] d = sendEvOver(used, 100);
            long[] idle = delta(idleBefore, lab.txPackets(other));
            assertThat(boxed(d)).as("%s", used).allSatisfy(x -> assertThat(x).isGreaterThanOrEqualTo(100L));
            assertThat(idle[1]).isLessThanOrEqualTo(IDLE_NOISE);
            assertThat(idle[2]).isLessThanOrEqualTo(IDLE_NOISE);
        }
    }

    /**
     * A two-plane rail fabric (every NIC with one port per plane, two spines a plane): the EV of a
     * plane-2 path, steered out the NIC's plane-2 port as its agent does, crosses exactly that path
     * (the plane-2 switches route the destination's address to its plane-2 leaf); plane 1 stays idle.
     */
    @Test
    void entropyValueSteeredOutThePlaneTwoPortCrossesPlaneTwo() throws Exception {
        up(RailGenerator.generate(new RailGenerator.Params("rail-ev", 2, 1, 1, 2, 2, 400, 400, 100, 500)),
                tag("evpl"));
        FabricPlan plan = lab.plan();
        String src = plan.nics().get(0);
        String dst = plan.nics().get(plan.nics().size() - 1);
        Arc home = plan.attachment(src);
        Arc second = plan.fabric().arcsFrom(src).stream().filter(a -> !a.equals(home)).findFirst().orElseThrow();
        String dstLeaf = plan.deliverySwitch(dst, second.to());
        List<Arc> planeOne = LabPaths.via(plan, src, dst, List.of(home.to(),
                plan.nextHops(home.to(), plan.attachment(dst).to()).get(0).to(), plan.attachment(dst).to()));
        for (Arc up : plan.nextHops(second.to(), dstLeaf)) {
            List<Arc> path = List.of(second, up, plan.nextHops(up.to(), dstLeaf).get(0),
                    new Arc(plan.nicLink(dstLeaf, dst), dstLeaf));
            Integer ev = PathEncoder.encode(plan, path, plan.tenants().get(0)).ev();
            assertThat(ev).as("EV of %s", path).isNotNull();
            lab.steerEv(src, dst, ev, second.link().id());
            long[] idleBefore = lab.txPackets(planeOne);
            long[] before = lab.txPackets(path);
            lab.sendUdp(src, dst, ev, 50);
            long[] d = delta(before, lab.txPackets(path));
            long[] idle = delta(idleBefore, lab.txPackets(planeOne));
            assertThat(boxed(d)).as("%s", path).allSatisfy(x -> assertThat(x).isGreaterThanOrEqualTo(50L));
            assertThat(boxed(idle)).as("plane 1 %s", planeOne)
                    .allSatisfy(x -> assertThat(x).isLessThanOrEqualTo(IDLE_NOISE));
        }
    }

    @Test
    void entropyValuePicksSpineAndSuperspineOnAFatTree() throws Exception {
        up(FatTreeGenerator.generate(FatTreeGenerator.kary(4)), tag("evft"));
        FabricPlan plan = lab.plan();
        // Every (spine, superspine) choice from p1-leaf1 to p3-leaf2: EV1 picks the spine, EV2 the superspine.
        for (int s = 1; s <= 2; s++) {
            for (String ss : s == 1 ? List.of("ss1", "ss2") : List.of("ss3", "ss4")) {
                List<Arc> path = LabPaths.via(plan, "p1-leaf1-nic1", "p3-leaf2-nic1",
                        List.of("p1-leaf1", "p1-spine" + s, ss, "p3-spine" + s, "p3-leaf2"));
                long[] d = sendEvOver(path, 50);
                assertThat(boxed(d)).as("%s", path).allSatisfy(x -> assertThat(x).isGreaterThanOrEqualTo(50L));
            }
        }
    }

    @Test
    void entropyValueTakesADragonflyValiantDetour() throws Exception {
        up(FabricJson.read(Path.of("../../contracts/examples/dragonfly-tiny.json")), tag("evdf"));
        FabricPlan plan = lab.plan();
        // Minimal g0-r0 -> g2-r0 is 2 router hops; EV1 and EV2 send it the long way round (4 hops).
        List<Arc> valiant = LabPaths.via(plan, "g0-r0-nic0", "g2-r0-nic0",
                List.of("g0-r0", "g1-r1", "g1-r0", "g2-r1", "g2-r0"));
        List<Arc> minimal = LabPaths.via(plan, "g0-r0-nic0", "g2-r0-nic0", List.of("g0-r0", "g0-r1", "g2-r0"));
        long[] idleBefore = lab.txPackets(minimal);
        long[] d = sendEvOver(valiant, 50);
        long[] idle = delta(idleBefore, lab.txPackets(minimal));
        assertThat(boxed(d)).allSatisfy(x -> assertThat(x).isGreaterThanOrEqualTo(50L));
        assertThat(idle[1]).isLessThanOrEqualTo(IDLE_NOISE);
        assertThat(idle[2]).isLessThanOrEqualTo(IDLE_NOISE);
        d = sendEvOver(minimal, 50);
        assertThat(boxed(d)).allSatisfy(x -> assertThat(x).isGreaterThanOrEqualTo(50L));
    }

    @Test
    void upClearsLeftoversOfACrashedRunAndDownIsIdempotent() throws Exception {
        Shell sh = new Shell();
        String tag = tag("lo");
        String prefix = LabLayout.prefix(tag);
        sh.run("ip", "netns", "add", prefix + "stale");
        try {
            up(FabricJson.read(Path.of("../../contracts/examples/leaf-spine-2x2.json")), tag);
            assertThat(NetnsLab.namespaces(sh)).filteredOn(ns -> ns.startsWith(prefix))
                    .hasSize(8).doesNotContain(prefix + "stale");
            assertThat(NetnsLab.down(tag, sh)).isEqualTo(8);
            assertThat(NetnsLab.down(tag, sh)).isZero();
        } finally {
            NetnsLab.down(tag, sh);
        }
    }

    @Test
    void switchesAreConfiguredByTheirOwnAgentsOverGnmiAndASecondUpStopsTheFirstRunsAgents() throws Exception {
        Fabric fabric = FabricJson.read(Path.of("../../contracts/examples/leaf-spine-2x2.json"));
        String tag = tag("gn");
        up(fabric, tag);
        FabricPlan plan = lab.plan();
        Path dir = lab.labDir();
        Map<String, Integer> ports = new LinkedHashMap<>();
        for (String line : Files.readAllLines(dir.resolve("gnmi-targets.txt"))) {
            String[] w = line.split(" ");
            assertThat(w[1]).as("endpoint of %s", w[0]).matches("127\\.0\\.0\\.1:\\d+");
            ports.put(w[0], Integer.parseInt(w[1].substring("127.0.0.1:".length())));
        }
        assertThat(ports.keySet()).containsExactlyElementsOf(plan.switches());
        Fabric handOver = FabricJson.read(dir.resolve(NetnsLab.GNMI_FABRIC_FILE));
        for (String sw : plan.switches()) {
            assertThat(handOver.node(sw).gnmi().port()).as("gnmi.port of %s", sw).isEqualTo(ports.get(sw));
        }
        assertThat(handOver.node("nic1").gnmi()).isNull();

        // A controller taking over from fabric-gnmi.json finds every switch at the plan: in sync
        // after its first read-back, without a single Set.
        Map<String, GnmiTarget> targets = new LinkedHashMap<>();
        for (String sw : plan.switches()) {
            var g = handOver.node(sw).gnmi();
            targets.put(sw, GnmiTarget.plaintext(sw, g.address(), g.port()));
        }
        try (Provisioner controller = new Provisioner(ProvisionerConfig.defaults(), new NettyChannels(), line -> { })) {
            controller.provision(targets, sw -> DeviceIntent.render(plan, sw));
            assertThat(controller.awaitIdle(30_000)).isTrue();
            assertThat(controller.devices()).hasSize(4).allSatisfy(d -> {
                assertThat(d.state()).as("%s", d).isEqualTo(DeviceState.IN_SYNC);
                assertThat(d.sets()).as("Sets sent to %s", d.device()).isZero();
            });
        }

        // The routes are the agent's (underlay "proto static"), none the lab's own ("proto boot").
        Shell sh = new Shell();
        String spine1 = lab.layout().namespace("spine1");
        assertThat(sh.run("ip", "-6", "-n", spine1, "route", "show", "proto", "static"))
                .contains(plan.locator("leaf1")).contains(plan.locator("leaf2"));
        assertThat(sh.run("ip", "-6", "-n", spine1, "route", "show", "proto", "boot")).isBlank();

        List<ProcessHandle> first = agents(dir, plan);
        assertThat(first).hasSize(4).allMatch(ProcessHandle::isAlive);

        // As after a crash (no down): the next up stops the old agents before it builds.
        NetnsLab again = new NetnsLab(plan, tag).stateDir(STATE);
        lab = again;
        again.up(NetnsLab.Progress.NONE);
        assertThat(first).noneMatch(ProcessHandle::isAlive);
        List<ProcessHandle> second = agents(dir, plan);
        assertThat(second).hasSize(4).allMatch(ProcessHandle::isAlive);
        List<Arc> path = LabPaths.via(plan, "nic1", "nic3", List.of("leaf1", "spine2", "leaf2"));
        pingOver(path, PINGS);

        // Down stops the agents first: a live agent would hold its namespace and ports.
        again.down();
        assertThat(second).noneMatch(ProcessHandle::isAlive);
        assertThat(ProcessHandle.allProcesses().filter(h -> h.info().commandLine().orElse("")
                .contains("--netns " + LabLayout.prefix(tag)))).isEmpty();
    }

    @Test
    void aLabCliStoppedMidBuildLeavesNoNamespaceAndNoAgent() throws Exception {
        // ./weft lab up in its own JVM, stopped (SIGTERM, as the terminal's Ctrl-C is SIGINT: both
        // run the shutdown hooks) once its agents run and before the switches are in sync.
        String tag = tag("ct");
        String prefix = LabLayout.prefix(tag);
        Path state = STATE.resolve("cli");
        Path fabric = STATE.resolve(tag + "-ft4.json");
        Files.createDirectories(STATE);
        Files.writeString(fabric, FabricJson.write(FatTreeGenerator.generate(FatTreeGenerator.kary(4))));
        Path javaBin = Path.of(System.getProperty("java.home"), "bin", "java");
        Process cli = new ProcessBuilder(javaBin.toString(), "-cp", System.getProperty("java.class.path"),
                "io.weft.lab.netns.LabCli", "up", fabric.toString(), "--tag", tag, "--state", state.toString())
                .redirectErrorStream(true).redirectOutput(STATE.resolve(tag + "-cli.log").toFile()).start();
        try {
            long end = System.nanoTime() + 60_000_000_000L;
            while (agentsOf(prefix) == 0 && cli.isAlive() && System.nanoTime() < end) {
                Thread.sleep(20);
            }
            assertThat(cli.isAlive()).as("lab up still building when its first agent runs").isTrue();
            cli.destroy();
            assertThat(cli.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
            assertThat(NetnsLab.namespaces(new Shell())).noneMatch(ns -> ns.startsWith(prefix));
            assertThat(agentsOf(prefix)).isZero();
        } finally {
            cli.destroyForcibly();
            NetnsLab.down(tag, new Shell(), state.resolve(tag));
        }
    }

    private static long agentsOf(String nsPrefix) {
        return ProcessHandle.allProcesses()
                .filter(h -> h.info().commandLine().orElse("").contains("--netns " + nsPrefix)).count();
    }

    /** The agents named by the lab's pid files, each checked to operate its own switch's namespace. */
    private List<ProcessHandle> agents(Path dir, FabricPlan plan) throws Exception {
        List<ProcessHandle> out = new ArrayList<>();
        for (String sw : plan.switches()) {
            long pid = Long.parseLong(Files.readString(dir.resolve(sw + ".pid")).strip());
            String cmdline = Files.readString(Path.of("/proc", Long.toString(pid), "cmdline")).replace('\0', ' ');
            assertThat(cmdline).as("agent of %s", sw).contains("weft-switch")
                    .contains("--netns " + lab.layout().namespace(sw) + " ").contains("--target " + sw);
            out.add(ProcessHandle.of(pid).orElseThrow());
        }
        return out;
    }

    @Test
    void aDownLinkLosesThePathUntilItIsReprogrammedAroundIt() throws Exception {
        up(FabricJson.read(Path.of("../../contracts/examples/leaf-spine-2x2.json")), tag("dn"));
        FabricPlan plan = lab.plan();
        List<Arc> viaA = LabPaths.via(plan, "nic1", "nic3", List.of("leaf1", "spine1", "leaf2"));
        List<Arc> viaB = LabPaths.via(plan, "nic1", "nic3", List.of("leaf1", "spine2", "leaf2"));
        pingOver(viaA, PINGS);
        lab.setLink("leaf2-spine1", false);
        assertThat(lab.ping("nic1", "nic3", 5, 0.01).received()).isZero();
        long[] d = pingOver(viaB, PINGS);
        assertThat(boxed(d)).allSatisfy(x -> assertThat(x).isGreaterThanOrEqualTo(PINGS));
        lab.setLink("leaf2-spine1", true);
        pingOver(viaA, PINGS);
    }

    @Test
    void aTokenBucketOnOneSpineLinkDropsWhatExceedsItsRate() throws Exception {
        up(FabricJson.read(Path.of("../../contracts/examples/leaf-spine-2x2.json")), tag("tb"));
        FabricPlan plan = lab.plan();
        List<Arc> viaA = LabPaths.via(plan, "nic1", "nic3", List.of("leaf1", "spine1", "leaf2"));
        pingOver(viaA, PINGS);
        lab.shape("leaf1", "leaf1-spine1", 1);
        assertThat(lab.qdisc("leaf1", "leaf1-spine1").kind()).isEqualTo("tbf");
        // 100 x 1.2 kB sent at once into a 1 Mbit/s bucket of 16 KiB: most must be dropped there.
        NetnsLab.PingResult r = lab.ping("nic1", "nic3", 200, 0.002, 1200, 100);
        NetnsLab.QdiscStats q = lab.qdisc("leaf1", "leaf1-spine1");
        assertThat(q.drops()).isPositive();
        assertThat(q.overlimits()).isPositive();
        assertThat(r.received()).isLessThan(r.sent());
        assertThat((long) (r.sent() - r.received())).isLessThanOrEqualTo(q.drops()); // every loss was a drop there
        lab.unshape("leaf1", "leaf1-spine1");
        lab.unshape("leaf1", "leaf1-spine1");
        assertThat(lab.qdisc("leaf1", "leaf1-spine1").kind()).isNotEqualTo("tbf");
        assertThat(lab.ping("nic1", "nic3", 200, 0.002, 1200, 100).received()).isEqualTo(200);
    }

    @Test
    void fatTreeSixUsidCarrierCrossesTheSuperspine() throws Exception {
        up(FatTreeGenerator.generate(FatTreeGenerator.kary(4)), tag("ft"));
        FabricPlan plan = lab.plan();
        List<Arc> path = LabPaths.via(plan, "p1-leaf1-nic1", "p3-leaf2-nic2",
                List.of("p1-leaf1", "p1-spine2", "ss3", "p3-spine2", "p3-leaf2"));
        PathEncoding enc = PathEncoder.encode(plan, path, "default");
        assertThat(enc.usids()).hasSize(6);
        assertThat(enc.carriers()).hasSize(1);
        long[] d = pingOver(path, PINGS);
        assertThat(boxed(d)).allSatisfy(x -> assertThat(x).isGreaterThanOrEqualTo(PINGS));
    }

    @Test
    void sevenPlusUsidsTravelInTwoCarriersThroughAnSrh() throws Exception {
        up(FatTreeGenerator.generate(FatTreeGenerator.kary(4)), tag("sr"));
        FabricPlan plan = lab.plan();
        // A detour through p2-leaf1: 7 switch hops + decap = 8 uSIDs, so carriers of 6 + 2.
        List<Arc> path = LabPaths.via(plan, "p1-leaf1-nic1", "p2-leaf2-nic1",
                List.of("p1-leaf1", "p1-spine1", "ss1", "p2-spine1", "p2-leaf1", "p2-spine2", "p2-leaf2"));
        PathEncoding enc = PathEncoder.encode(plan, path, "default");
        assertThat(enc.usids()).hasSize(8);
        assertThat(enc.carriers()).hasSize(2);
        long[] d = pingOver(path, PINGS);
        assertThat(boxed(d)).allSatisfy(x -> assertThat(x).isGreaterThanOrEqualTo(PINGS));
    }

    @Test
    void dragonflyDecapAloneInTheSecondCarrierStillDelivers() throws Exception {
        up(FabricJson.read(Path.of("../../contracts/examples/dragonfly-tiny.json")), tag("df"));
        FabricPlan plan = lab.plan();
        // Six routers + decap = 7 uSIDs: the egress uN ends carrier 0 and the decap function is
        // alone in carrier 1, so the egress router meets it only after loading it from the SRH.
        List<String> routers = simplePath(plan, List.of("g0-r0"), "g1-r1", 6);
        assertThat(routers).as("a 6-router simple path in dragonfly-tiny").isNotNull();
        String src = plan.nicsOf("g0-r0").get(0);
        String dst = plan.nicsOf("g1-r1").get(0);
        List<Arc> path = LabPaths.via(plan, src, dst, routers);
        PathEncoding enc = PathEncoder.encode(plan, path, "default");
        assertThat(enc.carriers()).hasSize(2);
        assertThat(enc.carriers().get(1)).isEqualTo("fcbb:bb00:e000::");
        long[] d = pingOver(path, PINGS);
        assertThat(boxed(d)).allSatisfy(x -> assertThat(x).isGreaterThanOrEqualTo(PINGS));
    }

    /** Depth-first: a simple switch path from the last of {@code prefix} to {@code to} with n switches. */
    private static List<String> simplePath(FabricPlan plan, List<String> prefix, String to, int n) {
        String at = prefix.get(prefix.size() - 1);
        if (prefix.size() == n) {
            return at.equals(to) ? prefix : null;
        }
        for (Arc a : plan.switchArcs(at)) {
            if (!prefix.contains(a.to())) {
                List<String> next = new java.util.ArrayList<>(prefix);
                next.add(a.to());
                List<String> found = simplePath(plan, next, to, n);
                if (found != null) {
                    return found;
                }
            }
        }
        return null;
    }

    @Test
    void uaPicksTheExactParallelLink() throws Exception {
        Fabric f = LeafSpineGenerator.generate(new LeafSpineGenerator.Params("ls-par", 2, 1, 1, 2,
                400, 400, 100, 500));
        up(f, tag("ua"));
        FabricPlan plan = lab.plan();
        for (String uplink : List.of("leaf1-spine1-1", "leaf1-spine1-2")) {
            for (String downlink : List.of("leaf2-spine1-1", "leaf2-spine1-2")) {
                List<Arc> path = LabPaths.over(plan, "leaf1-nic1", List.of("leaf1-nic1-up", uplink, downlink,
                        "leaf2-nic1-up"));
                assertThat(PathEncoder.encode(plan, path, "default").usids()).hasSize(6); // uN uA uN uA uN uDT
                List<Arc> others = LabPaths.over(plan, "leaf1-nic1", List.of("leaf1-nic1-up",
                        other(uplink), other(downlink), "leaf2-nic1-up"));
                long[] before = lab.txPackets(others);
                long[] d = pingOver(path, PINGS);
                long[] idle = delta(before, lab.txPackets(others));
                assertThat(boxed(d)).as("%s then %s", uplink, downlink)
                        .allSatisfy(x -> assertThat(x).isGreaterThanOrEqualTo(PINGS));
                assertThat(idle[1]).as("idle %s", other(uplink)).isLessThanOrEqualTo(IDLE_NOISE);
                assertThat(idle[2]).as("idle %s", other(downlink)).isLessThanOrEqualTo(IDLE_NOISE);
            }
        }
    }

    private static String other(String parallelLink) {
        return parallelLink.endsWith("-1") ? parallelLink.replaceAll("-1$", "-2")
                : parallelLink.replaceAll("-2$", "-1");
    }


    private static List<Long> boxed(long[] v) {
        return java.util.Arrays.stream(v).boxed().toList();
    }

    private static long[] delta(long[] before, long[] after) {
        long[] d = new long[before.length];
        for (int i = 0; i < d.length; i++) {
            d[i] = after[i] - before[i];
        }
        return d;
    }
}
