package io.weft.controller.onos;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Paths;
import java.util.List;
import javax.ws.rs.GET;
import javax.ws.rs.HeaderParam;
import javax.ws.rs.PUT;
import javax.ws.rs.Path;
import javax.ws.rs.PathParam;
import javax.ws.rs.Produces;
import javax.ws.rs.core.MediaType;
import javax.ws.rs.core.Response;

import io.weft.auth.TokenStore;
import io.weft.southbound.gnmi.DeviceStatusMetrics;
import org.onlab.osgi.DefaultServiceDirectory;
import org.onlab.osgi.ServiceDirectory;

/**
 * The Weft app's REST doors under ONOS's web server ({@code /onos/weft}):
 * <ul>
 *   <li>{@code PUT /onos/weft/links/{id}/state}: drains, as the standalone controller's
 *       {@code PUT /links/{id}/state} ({@link LinkStateRequest}); point scheduler-api's
 *       {@code WEFT_CONTROLLER_URL} at {@code http://onos:8181/onos/weft}.</li>
 *   <li>{@code GET /onos/weft/metrics}: every gNMI switch's provisioning state (in-sync, pending,
 *       unreachable, rejected), ops and sets as Prometheus gauges and counters, the same text as the
 *       standalone controller's {@code /metrics}; open, like every service's metrics.</li>
 * </ul>
 * Tokens come from the ONOS process's {@code WEFT_TOKENS} and {@code WEFT_TOKENS_FILE} (contracts/auth.md),
 * read once. The web.xml declares no ONOS security constraint: Weft's bearer tokens are the door.
 */
@Path("")
public class WeftWebResource {
    /** Where ONOS services come from; tests put their fakes here. */
    static volatile ServiceDirectory services = new DefaultServiceDirectory();
    /** Null: read from the environment on first use; tests set it. */
    static volatile TokenStore tokens;

    @PUT
    @Path("links/{id}/state")
    @Produces(MediaType.APPLICATION_JSON)
    public Response linkState(@PathParam("id") String linkId, @HeaderParam("Authorization") String authorization,
                              InputStream body) throws IOException {
        byte[] bytes = body == null ? new byte[0] : body.readNBytes(LinkStateRequest.MAX_BODY_BYTES);
        TokenStore store;
        try {
            store = tokens();
        } catch (IllegalArgumentException e) {
            // A bad WEFT_TOKENS entry or tokens file: no door opens, and the answer says why (never a value).
            return Response.status(503).entity(LinkStateRequest.error("tokens: " + e.getMessage()))
                    .type(MediaType.APPLICATION_JSON).build();
        }
        LinkStateRequest.Answer a = LinkStateRequest.put(store, service(WeftLinkStateService.class), linkId,
                authorization, bytes);
        Response.ResponseBuilder r = Response.status(a.status).entity(a.json).type(MediaType.APPLICATION_JSON);
        if (a.wwwAuthenticate != null) {
            r.header("WWW-Authenticate", a.wwwAuthenticate);
        }
        return r.build();
    }

    @GET
    @Path("metrics")
    @Produces("text/plain; version=0.0.4; charset=utf-8")
    public Response metrics() {
        WeftDeviceService devices = service(WeftDeviceService.class);
        return Response.ok(DeviceStatusMetrics.text(devices == null ? List.of() : devices.devices())).build();
    }

    private static <T> T service(Class<T> type) {
        try {
            return services.get(type);
        } catch (RuntimeException e) {
            return null; // ONOS's directory throws when the service is not (yet) there
        }
    }

    private static TokenStore tokens() {
        TokenStore t = tokens;
        if (t == null) {
            String file = System.getenv("WEFT_TOKENS_FILE");
            t = TokenStore.of(System.getenv("WEFT_TOKENS"), file == null || file.isBlank() ? null : Paths.get(file));
            tokens = t;
        }
        return t;
    }
}
