package io.weft.controller.onos;

import static io.weft.controller.onos.OsgiPropertyConstants.PUBLISH_RETRY_MS;
import static io.weft.controller.onos.OsgiPropertyConstants.REPLAN_DEBOUNCE_MS;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import javax.ws.rs.core.Response;

import com.fasterxml.jackson.databind.JsonNode;
import io.weft.auth.TokenStore;
import io.weft.fabric.FabricJson;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.onlab.osgi.DefaultServiceDirectory;
import org.onlab.osgi.TestServiceDirectory;

/**
 * {@code PUT /onos/weft/links/{id}/state}: the standalone controller's drain contract and token
 * scheme, served by the app's JAX-RS resource. ONOS's core cannot run here: the resource is called
 * as Jersey would call it, with the real {@link PlanProvisioner} behind it on ONOS's service
 * adapters (the same fakes as PlanProvisionerTest), and the published snapshots recorded.
 */
class LinkStateDoorTest {
    private static final String OPERATOR = "operator-token-0001";
    private static final String SCHEDULER = "scheduler-token-001";
    private static final String LINK = "leaf1.eth1-spine1.eth1";

    private final TestFabric t = new TestFabric();
    private final FakeMastershipService mastership = new FakeMastershipService();
    private final RecordingPublisher published = new RecordingPublisher();
    private final PlanProvisioner planner = new PlanProvisioner();

    @BeforeEach
    void start() throws Exception {
        PlanProvisionerTest.wire(planner, t, mastership, new ArrayList<>());
        planner.publisher = published;
        planner.activate(new ContextWith(REPLAN_DEBOUNCE_MS, 0, PUBLISH_RETRY_MS, 0));
        planner.awaitIdle();
        WeftWebResource.services = new TestServiceDirectory().add(WeftLinkStateService.class, planner);
        WeftWebResource.tokens = TokenStore.of("ops:operator=" + OPERATOR + ";sched:scheduler=" + SCHEDULER, null);
    }

    @AfterEach
    void stop() {
        planner.deactivate();
        WeftWebResource.services = new DefaultServiceDirectory();
        WeftWebResource.tokens = null;
    }

    private static Response put(String link, String token, String body) throws Exception {
        return new WeftWebResource().linkState(link, token == null ? null : "Bearer " + token,
                new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8)));
    }

    private static JsonNode json(Response r) throws Exception {
        return FabricJson.mapper().readTree((String) r.getEntity());
    }

    @Test
    void anOperatorDrainsALinkAndReturnsItToService() throws Exception {
        Response drained = put(LINK, OPERATOR, "{\"state\":\"drained\"}");
        assertThat(drained.getStatus()).isEqualTo(200);
        assertThat(json(drained).toString())
                .isEqualTo("{\"linkId\":\"" + LINK + "\",\"state\":\"drained\",\"version\":2,\"changed\":true}");
        assertThat(published.last().path("version").asLong()).isEqualTo(2);
        assertThat(published.last().path("linkStates").path(LINK).asText()).isEqualTo("drained");
        assertThat(planner.current().plan().fabric().link(LINK)).as("a drained link stays planned").isNotNull();

        Response again = put(LINK, OPERATOR, "{\"state\":\"drained\"}");
        assertThat(json(again).path("changed").asBoolean()).isFalse();
        assertThat(json(again).path("version").asLong()).isEqualTo(2);
        assertThat(published.versions).containsExactly(1L, 2L);

        Response up = put(LINK, OPERATOR, "{\"state\":\"up\"}");
        assertThat(json(up).toString())
                .isEqualTo("{\"linkId\":\"" + LINK + "\",\"state\":\"up\",\"version\":3,\"changed\":true}");
        assertThat(published.last().path("linkStates").path(LINK).asText()).isEqualTo("up");
    }

    @Test
    void aDrainOutlivesAFailoverThroughTheLastSnapshot() throws Exception {
        put(LINK, OPERATOR, "{\"state\":\"drained\"}");
        PlanProvisioner next = new PlanProvisioner();
        PlanProvisionerTest.wire(next, t, new FakeMastershipService(), new ArrayList<>());
        RecordingPublisher nextPublished = new RecordingPublisher();
        nextPublished.seed = published.last();
        next.publisher = nextPublished;
        next.activate(new ContextWith(REPLAN_DEBOUNCE_MS, 0, PUBLISH_RETRY_MS, 0));
        try {
            next.awaitIdle();
            assertThat(next.current().built().linkStates().get(LINK).json()).isEqualTo("drained");
        } finally {
            next.deactivate();
        }
    }

    @Test
    void tokensAreCheckedAsEverywhereElse() throws Exception {
        Response none = put(LINK, null, "{\"state\":\"drained\"}");
        assertThat(none.getStatus()).isEqualTo(401);
        assertThat(none.getHeaderString("WWW-Authenticate")).isEqualTo("Bearer");

        Response unknown = put(LINK, "not-a-known-token-000", "{\"state\":\"drained\"}");
        assertThat(unknown.getStatus()).isEqualTo(401);
        assertThat(unknown.getHeaderString("WWW-Authenticate")).contains("invalid_token");

        Response scheduler = put(LINK, SCHEDULER, "{\"state\":\"drained\"}");
        assertThat(scheduler.getStatus()).isEqualTo(403);
        assertThat(json(scheduler).path("error").asText()).contains("sched").contains("operator")
                .doesNotContain(SCHEDULER);
        assertThat(published.versions).as("nothing drained").containsExactly(1L);
    }

    @Test
    void badRequestsAreRefusedNamingWhy() throws Exception {
        assertThat(put(LINK, OPERATOR, "{not json").getStatus()).isEqualTo(400);
        Response down = put(LINK, OPERATOR, "{\"state\":\"down\"}");
        assertThat(down.getStatus()).isEqualTo(400);
        assertThat(json(down).path("error").asText()).startsWith("state:");
        Response unknown = put("no-such-link", OPERATOR, "{\"state\":\"drained\"}");
        assertThat(unknown.getStatus()).isEqualTo(404);
        assertThat(json(unknown).path("error").asText()).contains("no-such-link");
        assertThat(published.versions).containsExactly(1L);
    }

    @Test
    void anInstanceThatDoesNotPlanAnswers503() throws Exception {
        for (String d : new String[] {"device:leaf1", "device:leaf2", "device:spine1", "device:spine2"}) {
            mastership.master(d, FakeMastershipService.OTHER);
        }
        Response r = put(LINK, OPERATOR, "{\"state\":\"drained\"}");
        assertThat(r.getStatus()).isEqualTo(503);
        assertThat(json(r).path("error").asText()).contains("does not plan");
    }
}
