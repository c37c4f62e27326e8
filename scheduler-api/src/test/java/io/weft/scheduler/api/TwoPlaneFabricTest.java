package io.weft.scheduler.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.weft.contracts.LinkState;
import io.weft.devstack.junit.WeftDevstackTest;
import io.weft.fabric.Fabric;
import io.weft.fabric.FabricFormatException;
import io.weft.fabric.FabricJson;
import io.weft.fabric.Link;
import io.weft.lab.fabric.RailGenerator;
import io.weft.plan.FabricPlan;
import io.weft.plan.Planner;
import io.weft.scheduler.SchedulerApiApplication;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * A two-plane rail fabric end to end through the REST API: 8 servers x 2 rails, 4 servers a group,
 * 2 spines per plane, so 4 leaves per plane and every NIC with one port per plane, except srv8-nic2,
 * whose plane-2 port is left out (a single-port NIC beside the multi-plane ones). A line-rate ring
 * over all 16 NICs reaches the bound 1 only by using both planes (an EV-only one too: EV routing
 * reaches every plane); the agents' profiles name the port
 * each SRv6 entry leaves by. A plane-1 uplink then fails in the controller's next snapshot (published
 * on this test's own fabric topic: the standalone controller writes to the fixed weft.fabric, which
 * the other API tests place from). The service runs on its own fabric file, schema and topics.
 */
@WeftDevstackTest
@SpringBootTest(classes = SchedulerApiApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class TwoPlaneFabricTest {
    static final String SCHEDULER = "pl-sched-token-0123456789";
    static final String OPERATOR = "pl-oper-token-0123456789";
    static final String AGENT = "pl-agent-token-0123456789";
    static final String SINGLE_PORT_NIC = "srv8-nic2";
    static final Fabric FABRIC = twoPlanesOneSinglePortNic();
    static final FabricPlan PLAN = plan();
    static String fabricTopic;

    @LocalServerPort
    int port;

    @DynamicPropertySource
    static void props(DynamicPropertyRegistry r) throws IOException {
        fabricTopic = OwnService.register(r, "pl", FABRIC, "pls:scheduler=" + SCHEDULER + ";plo:operator=" + OPERATOR
                + ";pla:agent:" + String.join(",", PLAN.nics()) + "=" + AGENT);
    }

    static Fabric twoPlanesOneSinglePortNic() {
        Fabric full = RailGenerator.generate(
                new RailGenerator.Params("rail-8x2-2pl", 8, 2, 4, 2, 2, 400, 400, 100, 500));
        ObjectNode tree = FabricJson.toTree(full);
        Iterator<com.fasterxml.jackson.databind.JsonNode> links = tree.withArray("links").iterator();
        while (links.hasNext()) {
            if (links.next().get("id").asText().equals(SINGLE_PORT_NIC + "-up2")) {
                links.remove();
            }
        }
        try {
            return FabricJson.fromTree(tree);
        } catch (FabricFormatException ex) {
            throw new IllegalStateException(ex);
        }
    }

    static FabricPlan plan() {
        try {
            return Planner.plan(FABRIC, null);
        } catch (Exception ex) {
            throw new IllegalStateException(ex);
        }
    }

    @Test
    void aRingUsesBothPlanesNamesEachEntrysPortAndLeavesAFailedPlaneOneUplink() throws Exception {
        JsonNode job = postJob("{\"name\":\"two-planes\",\"pattern\":\"ring\",\"endpoints\":" + allNics()
                + ",\"demandGbps\":400}");
        String id = job.get("id").asString();
        assertThat(job.get("flows")).hasSize(PLAN.nics().size());
        // Each leaf's four NICs send four flows out over its 2 + 2 uplinks: one a link is the bound.
        assertThat(job.get("quality").get("maxLinkLoad").asDouble()).isEqualTo(1.0);
        int[] perPlane = new int[3];
        for (JsonNode f : job.get("flows")) {
            List<String> links = strings(f.get("links"));
            int plane = plane(links.get(0));
            perPlane[plane]++;
            // The path stays in the plane of the port it leaves by, to the destination's port in that plane.
            assertThat(plane(links.get(links.size() - 1))).as(f.toString()).isEqualTo(plane);
            links.subList(1, links.size() - 1).forEach(l -> assertThat(l).startsWith("pl" + plane + "-"));
        }
        assertThat(perPlane[1]).as("flows leaving by plane 1").isPositive();
        assertThat(perPlane[2]).as("flows leaving by plane 2").isPositive();
        assertEntriesNameTheirFirstHop(job);
        assertThat(entries(SINGLE_PORT_NIC, id)).as("the single-port NIC's entries").isNotEmpty()
                .allSatisfy(e -> assertThat(e.has("port")).isFalse());

        // A plane-1 leaf uplink some flow crosses fails in the controller's next snapshot.
        String failed = null;
        List<String> onIt = new ArrayList<>();
        for (JsonNode f : job.get("flows")) {
            for (String l : strings(f.get("links"))) {
                if (l.startsWith("pl1-") && (failed == null || failed.equals(l))) {
                    failed = l;
                    onIt.add(f.get("id").asString());
                }
            }
        }
        assertThat(failed).as("a flow crosses a plane-1 uplink").isNotNull();
        long version = get("/v1/fabric", OPERATOR).get("version").asLong();
        publish(Map.of(failed, LinkState.DOWN), version + 1);
        try {
            JsonNode after = awaitOff(id, failed);
            for (JsonNode f : after.get("flows")) {
                assertThat(strings(f.get("links"))).as(f.get("id").asString()).doesNotContain(failed);
                assertThat(f.get("state").asString()).isEqualTo("GOOD");
            }
            String history = get("/v1/jobs/" + id + "/history", OPERATOR).toString();
            assertThat(history).contains("link-down:" + failed);
            onIt.forEach(flow -> assertThat(history).contains(flow));
            assertEntriesNameTheirFirstHop(after);
        } finally {
            // The other test places on this service too: the link comes back, the job goes.
            publish(Map.of(), version + 2);
            delete("/v1/jobs/" + id);
        }
    }

    @Test
    void anEntropyValueJobUsesBothPlanes() {
        JsonNode job = postJob("{\"name\":\"ev-two-planes\",\"pattern\":\"ring\",\"endpoints\":" + allNics()
                + ",\"demandGbps\":100,\"encoding\":\"ev\"}");
        String id = job.get("id").asString();
        assertThat(job.get("encoding").asString()).isEqualTo("ev");
        assertThat(job.get("flows")).hasSize(PLAN.nics().size());
        // Both planes' bound: each leaf's four 100G flows over its 2 + 2 uplinks (one plane alone: 0.5).
        assertThat(job.get("quality").get("maxLinkLoad").asDouble()).isEqualTo(0.25);
        int planeTwo = 0;
        for (JsonNode f : job.get("flows")) {
            assertThat(f.get("state").asString()).isEqualTo("GOOD");
            planeTwo += plane(strings(f.get("links")).get(0)) == 2 ? 1 : 0;
        }
        assertThat(planeTwo).as("EV flows leaving by plane 2").isPositive();
        // Every flow has its entropy value in its source NIC's profile, naming the port it leaves by.
        assertEntriesNameTheirFirstHop(job);
        delete("/v1/jobs/" + id);
    }

    /**
     * Every entry of the job names, on a multi-plane NIC only, the first link of its flow's path: EV
     * routing reaches every plane, so each flow's udp-sport entry is GOOD with its value and port.
     */
    private void assertEntriesNameTheirFirstHop(JsonNode job) {
        String id = job.get("id").asString();
        boolean wantsSrv6 = !job.path("encoding").asString().equals("ev");
        Map<String, String> firstHop = new HashMap<>();
        for (JsonNode f : job.get("flows")) {
            firstHop.put(f.get("id").asString(), f.get("links").get(0).asString());
        }
        int srv6 = 0;
        int ev = 0;
        for (String nic : PLAN.nics()) {
            for (JsonNode e : entries(nic, id)) {
                String flow = e.get("id").asString().replaceAll("#(srv6|ev)$", "");
                assertThat(firstHop).as(e.toString()).containsKey(flow);
                assertThat(e.get("state").asString()).as(e.toString()).isEqualTo("GOOD");
                assertPort(nic, e, firstHop.get(flow));
                if (e.get("format").asString().equals("srv6")) {
                    srv6++;
                } else {
                    assertThat(e.get("value").asString()).as(e.toString()).isNotBlank();
                    ev++;
                }
            }
        }
        assertThat(srv6).isEqualTo(wantsSrv6 ? firstHop.size() : 0);
        assertThat(ev).isEqualTo(firstHop.size());
    }

    /** A multi-plane NIC's entry names {@code expected}, one of that NIC's links; a single-port NIC's none. */
    private static void assertPort(String nic, JsonNode entry, String expected) {
        Set<String> ports = new TreeSet<>();
        for (Link l : FABRIC.links()) {
            if (l.touches(nic)) {
                ports.add(l.id());
            }
        }
        if (ports.size() == 1) {
            assertThat(entry.has("port")).as(nic + " has one port: " + entry).isFalse();
        } else {
            assertThat(ports).as(nic + ": " + entry).contains(entry.path("port").asString(""));
            assertThat(entry.get("port").asString()).as(nic + ": " + entry).isEqualTo(expected);
        }
    }

    /** The job's entries in a NIC's profile, as its agent reads them. */
    private List<JsonNode> entries(String nic, String jobId) {
        List<JsonNode> out = new ArrayList<>();
        for (JsonNode peer : get("/v1/agents/" + nic + "/paths", AGENT).get("peers")) {
            for (JsonNode e : peer.get("entries")) {
                if (jobId.equals(e.path("jobId").asString(null))) {
                    out.add(e);
                }
            }
        }
        return out;
    }

    private JsonNode awaitOff(String id, String link) throws InterruptedException {
        for (int i = 0; i < 300; i++) {
            JsonNode j = get("/v1/jobs/" + id, SCHEDULER);
            boolean crossing = false;
            for (JsonNode f : j.get("flows")) {
                crossing |= strings(f.get("links")).contains(link);
            }
            if (!crossing) {
                return j;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("flows still cross the failed link " + link);
    }

    /** The controller's next snapshot of this fabric with the given links not up. */
    private static void publish(Map<String, LinkState> notUp, long version) throws Exception {
        OwnService.publishLinkStates(fabricTopic, PLAN, notUp, version);
    }

    static int plane(String link) {
        int at = link.startsWith("pl") ? 2 : link.length() - 1;
        return link.charAt(at) - '0';
    }

    /**
     * Every NIC in an order where each flow leaves its leaf (group 1 and group 2 alternate within a
     * rail, then the next rail): each leaf sends four flows out and takes four in, over two uplinks
     * per plane, so one plane alone gives load 2 and both give 1.
     */
    static String allNics() {
        List<String> ring = new ArrayList<>();
        for (int rail = 1; rail <= 2; rail++) {
            for (int srv = 1; srv <= 4; srv++) {
                ring.add("srv" + srv + "-nic" + rail);
                ring.add("srv" + (srv + 4) + "-nic" + rail);
            }
        }
        assertThat(ring).containsExactlyInAnyOrderElementsOf(PLAN.nics());
        return "[\"" + String.join("\",\"", ring) + "\"]";
    }

    static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asString()));
        return out;
    }

    JsonNode postJob(String body) {
        return OwnService.postJob(path -> request(path, SCHEDULER), body);
    }

    JsonNode get(String path, String token) {
        HttpResponse<String> r = MultipathSpreadingTest.send(request(path, token).GET().build());
        assertThat(r.statusCode()).as(path + ": " + r.body()).isEqualTo(200);
        return MultipathSpreadingTest.JSON.readTree(r.body());
    }

    void delete(String path) {
        assertThat(MultipathSpreadingTest.send(request(path, SCHEDULER).DELETE().build()).statusCode()).isEqualTo(200);
    }

    HttpRequest.Builder request(String path, String token) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).timeout(Duration.ofSeconds(60))
                .header("Authorization", "Bearer " + token);
    }
}
