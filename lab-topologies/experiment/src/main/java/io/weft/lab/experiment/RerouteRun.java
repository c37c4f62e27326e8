package io.weft.lab.experiment;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import com.fasterxml.jackson.databind.JsonNode;
import io.weft.contracts.HotspotEvent;
import io.weft.harness.Http;
import io.weft.lab.netns.LabException;
import io.weft.lab.netns.NetnsLab;

/**
 * One run: a ring job over the stack's NICs placed by scheduler-api, its routes installed by the real
 * nic-agents, iperf3 UDP along the first flow (first NIC -> second) for the run's duration, and
 * (unless a baseline) at {@code throttleAtS} the fault on the first fabric link that flow crosses: a
 * TBF on the source leaf's port ({@code throttle}), or the link cut at its far end ({@code
 * link-down}: the next switch's port admin-down, so the leaf's port loses its carrier). The receiver's
 * intervals, the host's route changes and each component's own records give the result.
 */
final class RerouteRun {
    private static final int IPERF_PORT = 5201;
    /** iperf3 UDP datagrams: an SRv6 encap (40 bytes) on 1200 bytes stays below the veths' 1500 MTU. */
    private static final int DATAGRAM_BYTES = 1200;
    /** A datagram's frame at the receiving NIC (what its rx_bytes counts): payload + UDP 8 + IPv6 40 + Ethernet 14. */
    static final int RX_FRAME_BYTES = DATAGRAM_BYTES + 8 + 40 + 14;
    /**
     * The same datagram at the throttled fabric port, where it still carries the outer IPv6 header
     * of the SRv6 encap (40 more): the TBF meters these frames, so the rate it is given is the
     * receiver-side throttle times TBF_FRAME_BYTES / RX_FRAME_BYTES. (A throttle sized without this
     * delivered 7-8 % less than asked: 99.6 of 114.3 Mbit/s of iperf3 payload.)
     */
    static final int TBF_FRAME_BYTES = RX_FRAME_BYTES + 40;

    /** The offered rate as the receiver's counter sees it (frames), Mbit/s. */
    static double offeredRxMbit(double offeredPayloadMbit) {
        return offeredPayloadMbit * RX_FRAME_BYTES / DATAGRAM_BYTES;
    }

    /** The noisy link drops on average this share of the detection threshold (0.5: 2.5 % at 5 %). */
    static final double NOISE_MEAN_DROP_OF_THRESHOLD = 0.5;
    /** A lossy slot of the noisy link drops this share of the threshold (2: 10 % at 5 %). */
    static final double NOISE_BURST_DROP_OF_THRESHOLD = 2;
    /** The noise decides lossy or clean this often: a property of the link, whatever the sampling. */
    static final long NOISE_SLOT_MS = 100;
    private static final long NOISE_SEED = 42;

    private final LabStack stack;
    private final ExperimentOptions o;
    private final Consumer<String> status;

    RerouteRun(LabStack stack, Consumer<String> status) {
        this.stack = stack;
        this.o = stack.options;
        this.status = status;
    }

    /** A run; {@code throttleMbit} NaN = no fault (the baseline). */
    RunResult run(String name, double throttleMbit) throws Exception {
        return run(name, throttleMbit, Double.NaN);
    }

    /**
     * A run with a noisy, not congested, link instead of a throttle: from {@code throttleAtS} the hit
     * flow's first fabric link flaps (see {@link LinkNoise}); every hotspot on it is a false detection.
     */
    RunResult runNoise(String name, double unthrottledRxMbit) throws Exception {
        return run(name, Double.NaN, unthrottledRxMbit);
    }

    private RunResult run(String name, double throttleMbit, double noiseRxMbit) throws Exception {
        boolean noisy = !Double.isNaN(noiseRxMbit);
        NetnsLab lab = stack.lab();
        int port = stack.schedulerPort();
        String src = stack.jobNics.get(0);
        String dst = stack.jobNics.get(1);
        Http.Reply created = Http.post(port, "/v1/jobs", LabStack.SCHEDULER_TOKEN, "{\"name\":\"reroute-" + name
                + "\",\"pattern\":\"ring\",\"order\":\"given\",\"endpoints\":[\"" + String.join("\",\"", stack.jobNics)
                + "\"],\"demandGbps\":100,\"encoding\":\"" + o.encoding() + "\"}");
        if (created.status() != 201) {
            throw new IllegalStateException("job not created: " + created.status() + " " + created.text());
        }
        JsonNode job = created.body();
        String jobId = job.get("id").asText();
        JsonNode hit = flow(job, src, dst);
        // The hit flow's first fabric hop: its source leaf's port towards the next switch.
        String throttleLink = hit.get("links").get(1).asText();
        String leaf = hit.get("nodes").get(1).asText();
        String spine = hit.get("nodes").get(2).asText();
        awaitRoutes(job);
        Map<String, List<String>> before = paths(job);
        boolean ev = o.encoding().equals("ev");
        // What steers the hit flow: its carriers (SRv6) or its entropy value (EV, the UDP source port).
        String originalCarriers = ev ? hit.path("ev").asText() : String.join(",", texts(hit.get("carriers")));
        // The frame the TBF meters: SRv6 adds its outer IPv6 header on the fabric, EV adds nothing.
        double tbfPerRx = (double) (ev ? RX_FRAME_BYTES : TBF_FRAME_BYTES) / RX_FRAME_BYTES;
        Instant runStart = Instant.now();

        Throughput tp;
        boolean linkDown = o.fault().equals("link-down");
        Instant throttledAt = null;
        long t0EpochNs = 0;
        LinkNoise noise = null;
        double noiseDrop = Double.NaN;
        EvSender evSender = null;
        // The receiver's port: its NIC's only link, named as the lab names it in the NIC's namespace.
        String rxIface = lab.layout().iface(lab.plan().attachment(dst).link().id(), dst);
        try (RouteMonitor routes = new RouteMonitor(lab.layout().namespace(src));
             RxSampler rx = new RxSampler(lab.layout().namespace(dst), rxIface, 100)) {
            Path serverOut = stack.dir.resolve("iperf3-" + name + "-server.json");
            Path clientOut = stack.dir.resolve("iperf3-" + name + "-client.json");
            // SRv6: one sender for the run, its server answers once. EV: the sender restarts on each
            // EV change, alternating between two servers that keep running.
            List<Process> servers = new ArrayList<>();
            for (int i = 0; i < (ev ? 2 : 1); i++) {
                List<String> cmd = new ArrayList<>(List.of("ip", "netns", "exec", lab.layout().namespace(dst), "iperf3",
                        "-s", "-J", "-i", "0.1", "-p", Integer.toString(IPERF_PORT + i)));
                if (!ev) {
                    cmd.add(5, "-1");
                }
                servers.add(new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(i == 0 ? serverOut.toFile()
                        : stack.dir.resolve("iperf3-" + name + "-server2.json").toFile()).start());
            }
            List<String> clientBase = List.of("ip", "netns", "exec", lab.layout().namespace(src), "iperf3", "-c",
                    lab.plan().nicAddress(dst), "-u", "-b", Math.round(o.offeredMbit()) + "M",
                    "-l", Integer.toString(DATAGRAM_BYTES),
                    // Socket buffers large enough that a busy 2-core machine does not drop at the receiver.
                    "-w", "4M", "-J");
            Process client = null;
            try {
                awaitListening(dst, ev ? 2 : 1, servers);
                if (ev) {
                    evSender = new EvSender(stack.evFile(src), lab.plan().nicAddress(src), lab.plan().nicAddress(dst),
                            clientBase, new int[] {IPERF_PORT, IPERF_PORT + 1}, o.durationS(), clientOut);
                } else {
                    List<String> cmd = new ArrayList<>(clientBase);
                    cmd.addAll(List.of("-p", Integer.toString(IPERF_PORT), "-t", Integer.toString(o.durationS())));
                    client = new ProcessBuilder(cmd).redirectErrorStream(true)
                            .redirectOutput(clientOut.toFile()).start();
                }
                long t0 = System.nanoTime();
                Instant start = Instant.now();
                t0EpochNs = start.getEpochSecond() * 1_000_000_000L + start.getNano();
                boolean throttled = Double.isNaN(throttleMbit) && !noisy;
                long end = t0 + TimeUnit.SECONDS.toNanos(o.durationS() + 20);
                while ((ev ? evSender.sending() : client.isAlive()) && System.nanoTime() < end) {
                    if (ev) {
                        evSender.check();
                    }
                    double t = (System.nanoTime() - t0) / 1e9;
                    if (!throttled && t >= o.throttleAtS()) {
                        if (noisy) {
                            noise = new LinkNoise(lab, leaf, throttleLink, noiseRxMbit * tbfPerRx,
                                    NOISE_MEAN_DROP_OF_THRESHOLD * o.dropFraction(),
                                    NOISE_BURST_DROP_OF_THRESHOLD * o.dropFraction(), NOISE_SLOT_MS, NOISE_SEED);
                        } else if (linkDown) {
                            cut(throttleLink, spine);
                        } else {
                            lab.shape(leaf, throttleLink, throttleMbit * tbfPerRx);
                        }
                        throttledAt = Instant.now();
                        throttled = true;
                    }
                    status.accept(String.format(Locale.ROOT, "%-9s %5.1f/%d s  %s", name, Math.min(t, o.durationS()),
                            o.durationS(), ev ? evNow(evSender, originalCarriers, throttledAt)
                                    : routeNow(routes, originalCarriers, throttledAt)));
                    LabStack.sleep(50);
                }
                if (!ev && (!client.waitFor(5, TimeUnit.SECONDS) || !servers.get(0).waitFor(10, TimeUnit.SECONDS))) {
                    throw new IllegalStateException("iperf3 did not finish; see " + serverOut);
                }
            } finally {
                if (client != null && client.isAlive()) {
                    LabStack.stop(client);
                }
                if (evSender != null) {
                    evSender.close();
                }
                for (Process server : servers) {
                    if (server.isAlive()) {
                        LabStack.stop(server);
                    }
                }
                if (noise != null) {
                    noiseDrop = noise.stopAndMeasure();
                } else if (throttledAt != null && linkDown) {
                    // Both ends up and confirmed over gNMI by the lab (the agents re-install their routes).
                    lab.setLink(throttleLink, true);
                } else if (throttledAt != null) {
                    lab.shape(leaf, throttleLink, LabStack.LINE_MBIT);
                }
            }
            // Checks iperf3 ran without error (EV: its servers' reports of stopped senders are not one JSON).
            Throughput app = ev ? null : Throughput.parse(Files.readString(serverOut));
            tp = RxSampler.throughput(rx.readings(), t0EpochNs, o.durationS());
            // 10 readings a second are asked; a machine so loaded that fewer than 2 arrive cannot time the chain.
            if (tp.samples().size() < o.durationS() * 2) {
                throw new IllegalStateException("the receiver's counter was read " + tp.samples().size() + " times in "
                        + o.durationS() + " s (iperf3 itself reported " + (app == null ? "?" : app.samples().size())
                        + " intervals; see " + clientOut + ")");
            }
            JsonNode after = ok(Http.get(port, "/v1/jobs/" + jobId, LabStack.SCHEDULER_TOKEN));
            LinkedHashMap<String, Long> stages = new LinkedHashMap<>();
            Chain chain = new Chain();
            if (throttledAt != null) {
                stages(stages, chain, throttledAt, runStart, throttleLink, spine, jobId, hit.get("id").asText(),
                        routes, evSender, originalCarriers, tp);
            }
            RunResult r = new RunResult(name, tp, o.throttleAtS(), throttleMbit, throttleLink, hit.get("id").asText(),
                    affected(job, throttleLink, spine, linkDown), before, paths(after), stages, chain.hotspots,
                    chain.committedBy, chain.loopSplit, noiseDrop);
            cleanUp(jobId, throttleLink, throttledAt != null);
            return r;
        }
    }

    /** A few words on the hit flow's EV: original, or changed (and when). */
    private static String evNow(EvSender sender, String original, Instant throttledAt) {
        List<EvSender.Rebind> rebinds = sender.rebinds();
        if (rebinds.isEmpty()) {
            return (throttledAt == null ? "" : "throttled, ") + "EV " + original;
        }
        EvSender.Rebind b = rebinds.get(rebinds.size() - 1);
        return "EV changed to " + b.port() + (throttledAt == null ? "" : String.format(Locale.ROOT,
                " %d ms after the throttle", Duration.between(throttledAt, b.seen()).toMillis()));
    }

    /** A few words on the hit flow's host route: original, or moved (and when). */
    private static String routeNow(RouteMonitor routes, String original, Instant throttledAt) {
        for (RouteMonitor.RouteEvent e : routes.events()) {
            if (!e.deleted() && !e.carriers().isEmpty() && !String.join(",", e.carriers()).equals(original)) {
                return "route moved to " + String.join(",", e.carriers()) + (throttledAt == null ? ""
                        : String.format(Locale.ROOT, " %d ms after the throttle",
                        Duration.between(throttledAt, e.at()).toMillis()));
            }
        }
        return throttledAt == null ? "route " + original : "throttled, route " + original;
    }

    /** What the chain's sources said beside the stage times. */
    private static final class Chain {
        /** Hotspot-starts (link-downs) the collector recorded for the faulty link during the run. */
        int hotspots;
        /** "loop" (scheduler-api's hotspot listener) or "fabric snapshot" (the controller's), or null. */
        String committedBy;
        /** The loop's own split of its pass (µs and ms by name, as it logged them); empty if it did not move. */
        Map<String, Long> loopSplit = new LinkedHashMap<>();
    }

    /** Fills {@code out} with ms after the throttle of each stage, and {@code chain} with the rest. */
    private void stages(LinkedHashMap<String, Long> out, Chain chain, Instant throttled, Instant runStart,
            String link, String spine,
                       String jobId, String flowId, RouteMonitor routes, EvSender evSender, String original,
                       Throughput tp)
            throws IOException {
        int port = stack.collectorPort();
        // The collector may still be writing: give its history a moment to hold the event.
        List<HotspotEvent> starts = new ArrayList<>();
        boolean linkDown = o.fault().equals("link-down");
        String kind = linkDown ? "link-down" : "hotspot-start";
        for (int i = 0; i < 30 && starts.isEmpty(); i++) {
            JsonNode h = Http.get(port, "/v1/hotspots?from=" + runStart + "&linkId=" + link + "&kind=" + kind,
                    null).body();
            for (HotspotEvent e : hotspotPage(h)) {
                // A cut link is down in both directions; a throttle makes only the leaf's direction hot.
                if (linkDown || e.direction().equals(spine)) {
                    starts.add(e);
                }
            }
            if (starts.isEmpty()) {
                LabStack.sleep(200);
            }
        }
        HotspotEvent first = null;
        for (HotspotEvent e : starts) {
            if (first == null || e.sampleTimestampNs() < first.sampleTimestampNs()) {
                first = e;
            }
        }
        Instant detected = null;
        if (first != null) {
            out.put("sample", ms(throttled, first.sampledAt()));
            detected = first.detectedAt();
            out.put("hotspot", ms(throttled, detected));
        }
        // The loop's own split of its pass (absent when the controller's snapshot moved the flows first).
        SchedulerLog.Pass pass = detected == null ? null : SchedulerLog.firstPass(
                Files.readAllLines(stack.schedulerLog()), runStart, linkDown ? "link-down:" : "hotspot:");
        if (pass != null && pass.number("eventToReceivedMs") >= 0) {
            out.put("received", ms(throttled, detected.plusMillis(pass.number("eventToReceivedMs"))));
        }
        Instant committed = null;
        JsonNode history = Http.get(stack.schedulerPort(), "/v1/jobs/" + jobId + "/history", LabStack.SCHEDULER_TOKEN)
                .body();
        if (history != null) {
            for (JsonNode c : history.path("changes")) {
                String reason = c.path("reason").asText();
                if (c.path("flowId").asText().equals(flowId)
                        && (reason.startsWith("hotspot:") || reason.startsWith("link-down:"))) {
                    committed = Instant.parse(c.get("at").asText());
                    out.put("committed", ms(throttled, committed));
                    // The loop's history reason carries its timings; the snapshot's is the bare cause.
                    chain.committedBy = reason.contains("event-to-decision-ms") ? "loop" : "fabric snapshot";
                    break;
                }
            }
        }
        if (pass != null && "loop".equals(chain.committedBy)) {
            for (String k : List.of("eventToReceivedMs", "receivedToPassUs", "lockWaitUs", "decideUs", "pinUs",
                    "recordUs", "commitToWakeMs")) {
                if (pass.number(k) >= 0) {
                    chain.loopSplit.put(k, pass.number(k));
                }
            }
        }
        if (pass != null && "loop".equals(chain.committedBy) && pass.number("eventToWakeMs") >= 0) {
            out.put("agents woken", ms(throttled, detected.plusMillis(pass.number("eventToWakeMs"))));
        }
        if (committed != null) {
            Instant answered = AgentLog.firstApplyAfter(Files.readAllLines(stack.agentLog(stack.jobNics.get(0))),
                    committed);
            if (answered != null) {
                out.put("agent answered", ms(throttled, answered));
            }
        }
        String dst = stack.lab().plan().nicAddress(stack.jobNics.get(1)) + "/128";
        Instant installed = null;
        if (evSender != null) {
            // EV: the agent's file shows the new entropy value, then the sender restarts from it.
            for (EvSender.Rebind b : evSender.rebinds()) {
                if (b.seen().isAfter(throttled)) {
                    out.put("ev changed", ms(throttled, b.seen()));
                    out.put("sender re-bound", ms(throttled, b.started()));
                    installed = b.started();
                    break;
                }
            }
        }
        for (RouteMonitor.RouteEvent e : evSender != null ? List.<RouteMonitor.RouteEvent>of() : routes.events()) {
            if (!e.deleted() && e.dst().equals(dst) && !e.carriers().isEmpty()
                    && !String.join(",", e.carriers()).equals(original) && e.at().isAfter(throttled)) {
                installed = e.at();
                out.put("route installed", ms(throttled, installed));
                break;
            }
        }
        if (installed != null) {
            double before = tp.meanMbit(Math.max(0, o.throttleAtS() - 2.5), o.throttleAtS() - 0.2);
            double installedS = o.throttleAtS() + Duration.between(throttled, installed).toMillis() / 1000.0;
            double restored = tp.firstSustained(installedS - 0.1, 0.9 * before, 1);
            if (!Double.isNaN(restored)) {
                out.put("throughput restored", Math.round((restored - o.throttleAtS()) * 1000));
            }
        }
        chain.hotspots = starts.size();
    }

    /**
     * Cuts a link at its far end: that switch's port admin-down. The near end (the source leaf's
     * port, which sends the hit flow) keeps its admin state and loses its carrier, as with a pulled
     * cable; the far switch reports its port DOWN. (The controller would set the far port up again
     * at its next read-back; the experiment's controller reads back once an hour.)
     */
    private void cut(String linkId, String farNode) throws LabException {
        NetnsLab lab = stack.lab();
        new io.weft.lab.netns.Shell().run("ip", "-n", lab.layout().namespace(farNode), "link", "set", "dev",
                lab.layout().iface(linkId, farNode), "down");
    }

    private static long ms(Instant from, Instant to) {
        return Duration.between(from, to).toMillis();
    }

    /**
     * Waits until the iperf3 servers listen in {@code dst}'s namespace: a fixed pause was not enough
     * at load 40, where a client was refused and the run failed.
     */
    private void awaitListening(String dst, int count, List<Process> servers) {
        String ns = stack.lab().layout().namespace(dst);
        stack.await("iperf3 listening in " + ns, () -> {
            for (Process p : servers) {
                if (!p.isAlive()) {
                    throw new IllegalStateException("an iperf3 server in " + ns + " exited (" + p.exitValue() + ")");
                }
            }
            try {
                String out = new io.weft.lab.netns.Shell().run("ip", "netns", "exec", ns, "ss", "-Hltn");
                for (int i = 0; i < count; i++) {
                    if (!out.contains(":" + (IPERF_PORT + i) + " ")) {
                        return false;
                    }
                }
                return true;
            } catch (io.weft.lab.netns.LabException notYet) {
                return false;
            }
        });
    }

    /** Removes the job and waits until the collector has ended the throttled direction's hotspot (if any). */
    private void cleanUp(String jobId, String link, boolean throttled) {
        Http.delete(stack.schedulerPort(), "/v1/jobs/" + jobId, LabStack.SCHEDULER_TOKEN);
        if (!throttled) {
            return;
        }
        Instant since = Instant.now().minusSeconds(o.durationS() + 30L);
        stack.await("the collector ending the hotspot on " + link, () -> {
            JsonNode h = Http.get(stack.collectorPort(), "/v1/hotspots?from=" + since + "&linkId=" + link, null)
                    .body();
            if (h == null) {
                return false;
            }
            // Newest first: the link is back when its latest event is neither a hotspot start nor a link down.
            for (HotspotEvent e : hotspotPage(h)) {
                return e.kind() != HotspotEvent.Kind.HOTSPOT_START && e.kind() != HotspotEvent.Kind.LINK_DOWN;
            }
            return true;
        });
    }

    /** The events of the collector's {@code GET /v1/hotspots} page, read as the contract's type. */
    private static List<HotspotEvent> hotspotPage(JsonNode page) {
        List<HotspotEvent> events = new ArrayList<>();
        if (page != null) {
            for (JsonNode e : page.path("events")) {
                events.add(HotspotEvent.fromTree(e));
            }
        }
        return events;
    }

    private void awaitRoutes(JsonNode job) {
        for (JsonNode f : job.get("flows")) {
            String src = f.get("src").asText();
            String dst = f.get("dst").asText();
            if (o.encoding().equals("ev")) {
                // EV: no route; the agent publishes the flow's entropy value in its EV file.
                int want = f.path("ev").asInt(-1);
                String pair = stack.lab().plan().nicAddress(src) + "," + stack.lab().plan().nicAddress(dst) + "=";
                stack.await(src + " publishing EV " + want + " for " + dst, () -> {
                    try {
                        return EvSender.portOf(Files.readAllLines(stack.evFile(src)), pair) == want;
                    } catch (IOException notYet) {
                        return false;
                    }
                });
                continue;
            }
            String carriers = String.join(" ", texts(f.get("carriers")));
            String ns = stack.lab().layout().namespace(src);
            String addr = stack.lab().plan().nicAddress(dst) + "/128";
            stack.await(src + " routing " + dst + " over [ " + carriers + " ]", () -> {
                try {
                    return new io.weft.lab.netns.Shell()
                            .run("ip", "-n", ns, "-6", "route", "show", addr, "proto", "200")
                            .contains("[ " + carriers + " ]");
                } catch (LabException e) {
                    return false;
                }
            });
        }
    }

    /** Flows crossing the link towards {@code toNode} (a throttle), or either way (a cut link). */
    static java.util.Set<String> affected(JsonNode job, String link, String toNode, boolean eitherWay) {
        java.util.Set<String> out = new java.util.TreeSet<>();
        for (JsonNode f : job.get("flows")) {
            JsonNode links = f.get("links");
            JsonNode nodes = f.get("nodes");
            for (int i = 0; i < links.size(); i++) {
                if (links.get(i).asText().equals(link) && (eitherWay || nodes.get(i + 1).asText().equals(toNode))) {
                    out.add(f.get("id").asText());
                }
            }
        }
        return out;
    }

    static Map<String, List<String>> paths(JsonNode job) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        for (JsonNode f : job.get("flows")) {
            out.put(f.get("id").asText(), texts(f.get("links")));
        }
        return out;
    }

    static JsonNode flow(JsonNode job, String src, String dst) {
        for (JsonNode f : job.get("flows")) {
            if (f.get("src").asText().equals(src) && f.get("dst").asText().equals(dst)) {
                return f;
            }
        }
        throw new IllegalStateException("no flow " + src + " -> " + dst + " in " + job);
    }

    static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    private static JsonNode ok(Http.Reply r) {
        if (r.status() != 200) {
            throw new IllegalStateException("scheduler-api answered " + r.status() + ": " + r.text());
        }
        return r.body();
    }
}
