package io.weft.controller.standalone;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import javax.net.ssl.SSLContext;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.weft.auth.BearerCheck;
import io.weft.auth.Caller;
import io.weft.auth.ReadAccess;
import io.weft.auth.Scope;
import io.weft.auth.TokenStore;
import io.weft.contracts.LinkState;
import io.weft.fabric.FabricJson;

/**
 * {@code GET /fabric}: the current snapshot (ETag = version, so pollers get 304 until it changes);
 * {@code GET /healthz}: served version and the last unresolved problem;
 * {@code GET /devices}: each gNMI switch's provisioning state, last error, last sync, ops sent;
 * {@code GET /metrics}: the same as Prometheus gauges and counters (text format);
 * {@code PUT /links/<id>/state} with {@code {"state":"drained"}} or {@code {"state":"up"}}: an operator
 * drains a link or returns it to service (answers the version carrying it). JSON only.
 *
 * <p>Doors (contracts/auth.md): {@code PUT} needs an operator token, always; {@code GET /fabric} and
 * {@code /devices} need a scheduler or operator token when reads are {@link ReadAccess#TOKEN};
 * {@code /healthz} and {@code /metrics} are open (probes and scrapers). 401 and 403 as
 * {@code {"error":...}} naming the token, never its value.
 */
final class FabricHttpServer implements AutoCloseable {
    private final HttpServer server;
    private final ExecutorService executor;
    private static final int MAX_BODY_BYTES = 4096;

    private final SnapshotKeeper controller;
    private final DeviceProvisioning devices; // null: no southbound
    private final BearerCheck auth;
    private final ReadAccess reads;

    FabricHttpServer(String host, int port, SnapshotKeeper controller) throws IOException {
        this(host, port, controller, null, TokenStore.empty(), ReadAccess.OPEN);
    }

    FabricHttpServer(String host, int port, SnapshotKeeper controller, DeviceProvisioning devices,
                     TokenStore tokens, ReadAccess reads) throws IOException {
        this(host, port, controller, devices, tokens, reads, null);
    }

    /** @param tls HTTPS with this context; null for plain HTTP */
    FabricHttpServer(String host, int port, SnapshotKeeper controller, DeviceProvisioning devices,
                     TokenStore tokens, ReadAccess reads, SSLContext tls) throws IOException {
        this.controller = controller;
        this.devices = devices;
        this.auth = new BearerCheck(tokens, FabricHttpServer::deny);
        this.reads = reads;
        if (tls == null) {
            this.server = HttpServer.create(new InetSocketAddress(host, port), 16);
        } else {
            HttpsServer https = HttpsServer.create(new InetSocketAddress(host, port), 16);
            https.setHttpsConfigurator(new HttpsConfigurator(tls));
            this.server = https;
        }
        this.executor = Executors.newFixedThreadPool(2, r -> {
            Thread t = new Thread(r, "weft-controller-http");
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(executor);
        server.createContext("/", this::handle);
        server.start();
    }

    int port() {
        return server.getAddress().getPort();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().getPath();
            if (!admitted(exchange, path)) {
                return;
            }
            if (path.startsWith("/links/") && path.endsWith("/state")) {
                linkState(exchange, path.substring("/links/".length(), path.length() - "/state".length()));
                return;
            }
            if (!path.equals("/fabric") && !path.equals("/healthz") && !path.equals("/devices")
                    && !path.equals("/metrics")) {
                send(exchange, 404, error("no such resource " + path
                        + " (try /fabric, /healthz, /devices or /metrics)"));
                return;
            }
            if (!exchange.getRequestMethod().equals("GET") && !exchange.getRequestMethod().equals("HEAD")) {
                exchange.getResponseHeaders().set("Allow", "GET, HEAD");
                send(exchange, 405, error("method " + exchange.getRequestMethod() + " not allowed"));
                return;
            }
            if (path.equals("/healthz")) {
                send(exchange, 200, FabricJson.mapper().writeValueAsBytes(controller.status()));
                return;
            }
            if (path.equals("/devices")) {
                ObjectNode body = devices != null ? devices.devicesJson()
                        : FabricJson.mapper().createObjectNode().put("note", "no switch is provisioned");
                if (devices == null) {
                    body.putObject("counts");
                    body.putArray("devices");
                }
                send(exchange, 200, FabricJson.mapper().writeValueAsBytes(body));
                return;
            }
            if (path.equals("/metrics")) {
                String text = devices == null ? "" : devices.metrics();
                send(exchange, 200, "text/plain; version=0.0.4; charset=utf-8", text.getBytes(StandardCharsets.UTF_8));
                return;
            }
            Snapshot s = controller.current();
            if (s == null) {
                send(exchange, 503, error("no fabric planned yet"));
                return;
            }
            String etag = "\"" + s.fabricId() + "-" + s.version() + "\"";
            exchange.getResponseHeaders().set("ETag", etag);
            exchange.getResponseHeaders().set("Cache-Control", "no-cache");
            if (etag.equals(exchange.getRequestHeaders().getFirst("If-None-Match"))) {
                exchange.sendResponseHeaders(304, -1);
                return;
            }
            send(exchange, 200, s.json());
        } catch (RuntimeException e) {
            // One bad request must not kill the handler thread; the client gets a 500 with one line.
            send(exchange, 500, error("internal error: " + e));
        }
    }

    /** Who may do what: writes are an operator's; reads (when they need a token) a scheduler's or operator's. */
    private static String deny(String method, String path, Caller caller) {
        if (BearerCheck.isRead(method)) {
            return caller.scope() == Scope.AGENT ? BearerCheck.refuse(caller, "scheduler or operator") : null;
        }
        return caller.scope() == Scope.OPERATOR ? null : BearerCheck.refuse(caller, "operator");
    }

    /** False when the request was answered 401/403 here. */
    private boolean admitted(HttpExchange exchange, String path) throws IOException {
        String method = exchange.getRequestMethod();
        boolean open = path.equals("/healthz") || path.equals("/metrics")
                || (reads == ReadAccess.OPEN && BearerCheck.isRead(method));
        if (open) {
            return true;
        }
        BearerCheck.Decision d = auth.check(method, path, exchange.getRequestHeaders().getFirst("Authorization"));
        if (d.allowed()) {
            return true;
        }
        if (d.wwwAuthenticate() != null) {
            exchange.getResponseHeaders().set("WWW-Authenticate", d.wwwAuthenticate());
        }
        send(exchange, d.status(), error(d.message()));
        return false;
    }

    private void linkState(HttpExchange exchange, String linkId) throws IOException {
        if (!exchange.getRequestMethod().equals("PUT")) {
            exchange.getResponseHeaders().set("Allow", "PUT");
            send(exchange, 405, error("method " + exchange.getRequestMethod() + " not allowed"));
            return;
        }
        JsonNode body;
        try (InputStream in = exchange.getRequestBody()) {
            body = FabricJson.mapper().readTree(in.readNBytes(MAX_BODY_BYTES));
        } catch (IOException e) {
            send(exchange, 400, error("body: not valid JSON"));
            return;
        }
        String state = body == null ? "" : body.path("state").asText("");
        if (!state.equals(LinkState.DRAINED.json()) && !state.equals(LinkState.UP.json())) {
            send(exchange, 400, error("state: must be \"drained\" or \"up\" (down is what telemetry reports)"));
            return;
        }
        SnapshotKeeper.DrainResult r;
        try {
            r = controller.setDrained(linkId, state.equals(LinkState.DRAINED.json()));
        } catch (IllegalArgumentException e) {
            send(exchange, 404, error(e.getMessage()));
            return;
        }
        // state: the link's state in that version (a link telemetry holds down stays down when undrained).
        ObjectNode answer = FabricJson.mapper().createObjectNode().put("linkId", linkId).put("state", r.state())
                .put("version", r.version()).put("changed", r.changed());
        send(exchange, 200, answer.toString().getBytes(StandardCharsets.UTF_8));
    }

    private static void send(HttpExchange exchange, int status, byte[] body) throws IOException {
        send(exchange, status, "application/json", body);
    }

    private static void send(HttpExchange exchange, int status, String contentType, byte[] body) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", contentType);
        boolean head = exchange.getRequestMethod().equals("HEAD");
        exchange.sendResponseHeaders(status, head ? -1 : body.length);
        if (!head) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
    }

    private static byte[] error(String message) {
        return FabricJson.mapper().createObjectNode().put("error", message).toString().getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
