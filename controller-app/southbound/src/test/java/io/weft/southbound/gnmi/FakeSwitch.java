package io.weft.southbound.gnmi;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.gnmi.proto.CapabilityRequest;
import com.github.gnmi.proto.CapabilityResponse;
import com.github.gnmi.proto.Encoding;
import com.github.gnmi.proto.GetRequest;
import com.github.gnmi.proto.GetResponse;
import com.github.gnmi.proto.ModelData;
import com.github.gnmi.proto.Notification;
import com.github.gnmi.proto.Path;
import com.github.gnmi.proto.SetRequest;
import com.github.gnmi.proto.SetResponse;
import com.github.gnmi.proto.TypedValue;
import com.github.gnmi.proto.Update;
import com.github.gnmi.proto.UpdateResult;
import com.github.gnmi.proto.gNMIGrpc;
import com.google.protobuf.ByteString;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;

/**
 * An in-process gNMI server playing one switch: it stores what Set replaces (keyed by canonical
 * path, as a JSON tree so Get re-serialises rather than echoes the request bytes), answers Get
 * from that store, and can be told to misbehave: reject a path, answer slowly, drop the connection
 * in the middle of a Set, lack a model. Records every SetRequest so tests can count ops. Listens
 * in-process (by name) or, with {@link #tcp}, on a loopback TCP port (shared by the standalone
 * controller's tests through this module's test jar).
 */
public final class FakeSwitch implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Binding the kept port again on a restart: tries, and the wait between them. */
    private static final int BIND_ATTEMPTS = 40;
    private static final long BIND_RETRY_MS = 50;

    public final String name;
    /** Canonical path to the value's JSON as received (bytes: a k=16 fabric's config would not fit as trees). */
    public final Map<String, byte[]> store = new ConcurrentHashMap<>();
    public final List<SetRequest> sets = new CopyOnWriteArrayList<>();
    /**
     * False: {@link #sets} stays empty (a k=16 fabric's requests would double the fakes' heap); the counters still
     * count.
     */
    public volatile boolean keepSets = true;
    public final AtomicInteger setCount = new AtomicInteger();
    public final java.util.concurrent.atomic.AtomicLong opCount = new java.util.concurrent.atomic.AtomicLong();
    public final java.util.concurrent.atomic.AtomicLong setBytes = new java.util.concurrent.atomic.AtomicLong();
    public final AtomicInteger gets = new AtomicInteger();
    public volatile List<String> models = GnmiSession.REQUIRED_MODELS;
    public volatile String rejectPath;       // a Set touching this path (plain, without origin) is INVALID_ARGUMENT
    public volatile long delayMs;            // every RPC answers this late
    public volatile boolean dropNextSet;     // the next Set kills the server (connection drop mid-push)
    public volatile boolean reorder;         // Get answers with object members in reverse order

    /**
     * Single static routes Set since their instance was last replaced whole, by instance key then
     * route key (null: deleted). Folded into {@link #store} when the whole instance is read, so a
     * re-plan of a few routes costs the fake no re-serialisation of hundreds of KB.
     */
    private final Map<String, Map<String, byte[]>> routeEdits = new ConcurrentHashMap<>();

    /** The stored value of a path as a JSON tree, or null. */
    public JsonNode value(String key) {
        byte[] v = folded(key);
        try {
            return v == null ? null : JSON.readTree(v);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The same JSON with every object's members in reverse order: what a switch with its own order sends. */
    private static byte[] reversed(byte[] json) {
        try {
            return JSON.writeValueAsBytes(reverse(JSON.readTree(json)));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static JsonNode reverse(JsonNode n) {
        if (n.isObject()) {
            java.util.List<String> names = new java.util.ArrayList<>();
            n.fieldNames().forEachRemaining(names::add);
            java.util.Collections.reverse(names);
            com.fasterxml.jackson.databind.node.ObjectNode o = JSON.createObjectNode();
            names.forEach(name -> o.set(name, reverse(n.get(name))));
            return o;
        }
        if (n.isArray()) {
            com.fasterxml.jackson.databind.node.ArrayNode a = JSON.createArrayNode();
            n.forEach(e -> a.add(reverse(e)));
            return a;
        }
        return n;
    }
    private final boolean tcp;
    private final javax.net.ssl.KeyManagerFactory tls; // null: plaintext
    /** The request headers of the last call (username/password metadata). */
    public volatile io.grpc.Metadata lastHeaders;
    private volatile int port;
    private volatile Server server;

    /** An in-process switch reached by {@code name}. */
    public FakeSwitch(String name) {
        this(name, false);
    }

    private FakeSwitch(String name, boolean tcp) {
        this(name, tcp, null);
    }

    private FakeSwitch(String name, boolean tcp, javax.net.ssl.KeyManagerFactory tls) {
        this.name = name;
        this.tcp = tcp;
        this.tls = tls;
    }

    /** A switch on a loopback TCP port (chosen at the first start, kept across restarts). */
    public static FakeSwitch tcp(String name) {
        return new FakeSwitch(name, true);
    }

    /** A switch on a loopback TCP port serving TLS with the given key and certificate. */
    public static FakeSwitch tls(String name, javax.net.ssl.KeyManagerFactory keys) {
        return new FakeSwitch(name, true, keys);
    }

    public FakeSwitch start() throws IOException {
        io.grpc.ServerServiceDefinition service = io.grpc.ServerInterceptors.intercept(new Service(),
                new io.grpc.ServerInterceptor() {
                    @Override
                    public <Q, R> io.grpc.ServerCall.Listener<Q> interceptCall(io.grpc.ServerCall<Q, R> call,
                            io.grpc.Metadata headers, io.grpc.ServerCallHandler<Q, R> next) {
                        lastHeaders = headers;
                        return next.startCall(call, headers);
                    }
                });
        if (tcp) {
            // The client pings every 30 s on a busy connection; gRPC's default server policy (one ping per
            // 5 min) answers that with GOAWAY too_many_pings once RPCs queue up on a loaded machine.
            NettyServerBuilder b = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", port))
                    .permitKeepAliveTime(10, java.util.concurrent.TimeUnit.SECONDS).permitKeepAliveWithoutCalls(true);
            if (tls != null) {
                b.sslContext(io.grpc.netty.shaded.io.grpc.netty.GrpcSslContexts.configure(
                        io.grpc.netty.shaded.io.netty.handler.ssl.SslContextBuilder.forServer(tls)).build());
            }
            server = b.addService(service).build().start();
            port = server.getPort();
        } else {
            server = InProcessServerBuilder.forName(name).addService(service).build().start();
        }
        return this;
    }

    /** The TCP port (after start). */
    public int port() {
        return port;
    }

    /** A switch restarting with an empty kernel: nothing of the old config survives. */
    public FakeSwitch restartEmpty() throws IOException {
        stop();
        store.clear();
        routeEdits.clear();
        // The same port again: on a busy machine another process's outgoing connection can hold it as
        // its local port for a moment after the old listener closed (seen once in CI); retry briefly.
        for (int attempt = 1; ; attempt++) {
            try {
                return start();
            } catch (IOException e) {
                if (!(e.getCause() instanceof java.net.BindException) || attempt == BIND_ATTEMPTS) {
                    throw e;
                }
                pause(BIND_RETRY_MS);
            }
        }
    }

    public void stop() {
        Server s = server;
        if (s != null) {
            s.shutdownNow();
            try {
                s.awaitTermination();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        server = null;
    }

    public int opsInSet(int i) {
        SetRequest r = sets.get(i);
        return r.getReplaceCount() + r.getDeleteCount();
    }

    public int totalOps() {
        int n = 0;
        for (int i = 0; i < sets.size(); i++) {
            n += opsInSet(i);
        }
        return n;
    }

    @Override
    public void close() {
        stop();
    }

    private void pause() {
        pause(delayMs);
    }

    private static void pause(long ms) {
        if (ms > 0) {
            try {
                Thread.sleep(ms);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private final class Service extends gNMIGrpc.gNMIImplBase {
        @Override
        public void capabilities(CapabilityRequest request, StreamObserver<CapabilityResponse> out) {
            pause();
            CapabilityResponse.Builder b = CapabilityResponse.newBuilder().setGNMIVersion("0.10.0")
                    .addSupportedEncodings(Encoding.JSON).addSupportedEncodings(Encoding.JSON_IETF);
            for (String m : models) {
                b.addSupportedModels(ModelData.newBuilder().setName(m)
                        .setOrganization(m.startsWith("openconfig") ? "OpenConfig" : "Weft"));
            }
            out.onNext(b.build());
            out.onCompleted();
        }

        @Override
        public void set(SetRequest request, StreamObserver<SetResponse> out) {
            pause();
            if (dropNextSet) {
                dropNextSet = false;
                // Never answer; the server goes away under the call as a crashing agent would.
                new Thread(FakeSwitch.this::stop).start();
                return;
            }
            for (Update u : request.getReplaceList()) {
                String plain = GnmiPaths.format(Path.newBuilder().addAllElem(u.getPath().getElemList()).build());
                if (plain.equals(rejectPath)) {
                    out.onError(Status.INVALID_ARGUMENT.withDescription(
                            "replace " + plain + ": config.mtu: unsupported field").asRuntimeException());
                    return;
                }
            }
            if (keepSets) {
                sets.add(request);
            }
            setCount.incrementAndGet();
            opCount.addAndGet(request.getReplaceCount() + request.getDeleteCount());
            setBytes.addAndGet(request.getSerializedSize());
            SetResponse.Builder resp = SetResponse.newBuilder();
            synchronized (FakeSwitch.this) {
                for (Path d : request.getDeleteList()) {
                    Path full = join(request.getPrefix(), d);
                    if (isRoute(full)) {
                        String inst = GnmiPaths.format(instanceOf(full));
                        if (store.containsKey(inst)) {
                            routeEdits.computeIfAbsent(inst, k -> new java.util.LinkedHashMap<>())
                                    .put(GnmiPaths.format(full), null);
                        }
                    } else {
                        store.remove(GnmiPaths.format(full));
                        routeEdits.remove(GnmiPaths.format(full));
                    }
                    resp.addResponse(UpdateResult.newBuilder().setPath(d).setOp(UpdateResult.Operation.DELETE));
                }
                for (Update u : request.getReplaceList()) {
                    Path full = join(request.getPrefix(), u.getPath());
                    byte[] v = u.getVal().getJsonIetfVal().toByteArray();
                    if (isRoute(full)) {
                        String inst = GnmiPaths.format(instanceOf(full));
                        if (!store.containsKey(inst)) {
                            out.onError(Status.INVALID_ARGUMENT.withDescription(GnmiPaths.format(full)
                                    + ": no network instance " + inst).asRuntimeException());
                            return;
                        }
                        routeEdits.computeIfAbsent(inst, k -> new java.util.LinkedHashMap<>())
                                .put(GnmiPaths.format(full), v);
                    } else {
                        store.put(GnmiPaths.format(full), v);
                        routeEdits.remove(GnmiPaths.format(full));
                    }
                    resp.addResponse(UpdateResult.newBuilder().setPath(u.getPath())
                            .setOp(UpdateResult.Operation.REPLACE));
                }
            }
            out.onNext(resp.build());
            out.onCompleted();
        }

        @Override
        public void get(GetRequest request, StreamObserver<GetResponse> out) {
            pause();
            gets.incrementAndGet();
            GetResponse.Builder resp = GetResponse.newBuilder();
            for (Path p : request.getPathList()) {
                Notification.Builder n = Notification.newBuilder().setTimestamp(System.nanoTime())
                        .setPrefix(Path.newBuilder().setTarget(request.getPrefix().getTarget()));
                byte[] v = read(join(request.getPrefix(), p));
                if (v != null) {
                    n.addUpdate(Update.newBuilder().setPath(p).setVal(TypedValue.newBuilder()
                            .setJsonIetfVal(ByteString.copyFrom(reorder ? reversed(v) : v))));
                }
                resp.addNotification(n);
            }
            out.onNext(resp.build());
            out.onCompleted();
        }
    }

    private static Path join(Path prefix, Path p) {
        Path.Builder b = p.toBuilder().clearElem().addAllElem(prefix.getElemList()).addAllElem(p.getElemList());
        if (p.getOrigin().isEmpty()) {
            b.setOrigin(prefix.getOrigin());
        }
        return b.clearTarget().build();
    }

    /** network-instances/network-instance[name]/protocols/protocol[..]/static-routes/static[prefix]. */
    private static boolean isRoute(Path p) {
        return p.getElemCount() == 6 && p.getElem(0).getName().equals("network-instances")
                && p.getElem(5).getName().equals("static");
    }

    private static Path instanceOf(Path route) {
        return route.toBuilder().clearElem().addElem(route.getElem(0)).addElem(route.getElem(1)).build();
    }

    /** What Get answers for a path: a whole value (route edits folded in) or one route. */
    private synchronized byte[] read(Path p) {
        if (!isRoute(p)) {
            return folded(GnmiPaths.format(p));
        }
        String inst = GnmiPaths.format(instanceOf(p));
        String key = GnmiPaths.format(p);
        Map<String, byte[]> edits = routeEdits.get(inst);
        if (edits != null && edits.containsKey(key)) {
            return edits.get(key);
        }
        byte[] whole = store.get(inst);
        if (whole == null) {
            return null;
        }
        try {
            JsonNode route = findRoute(JSON.readTree(whole), p);
            return route == null ? null : JSON.writeValueAsBytes(route);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The whole value at key with the route edits applied (and kept so from now on). */
    private synchronized byte[] folded(String key) {
        byte[] whole = store.get(key);
        Map<String, byte[]> edits = routeEdits.remove(key);
        if (whole == null || edits == null || edits.isEmpty()) {
            return whole;
        }
        try {
            JsonNode tree = JSON.readTree(whole);
            for (Map.Entry<String, byte[]> e : edits.entrySet()) {
                Path p = GnmiPaths.parse("openconfig", e.getKey().substring(e.getKey().indexOf(':') + 1));
                com.fasterxml.jackson.databind.node.ArrayNode routes = routesOf(tree, p);
                if (routes == null) {
                    continue;
                }
                String prefix = p.getElem(5).getKeyOrThrow("prefix");
                for (int i = routes.size() - 1; i >= 0; i--) {
                    if (routes.get(i).path("prefix").asText().equals(prefix)) {
                        routes.remove(i);
                    }
                }
                if (e.getValue() != null) {
                    routes.add(JSON.readTree(e.getValue()));
                }
            }
            byte[] v = JSON.writeValueAsBytes(tree);
            store.put(key, v);
            return v;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static com.fasterxml.jackson.databind.node.ArrayNode routesOf(JsonNode instance, Path route) {
        Map<String, String> k = route.getElem(3).getKeyMap();
        for (JsonNode proto : instance.path("protocols").path("protocol")) {
            if (proto.path("identifier").asText().equals(k.get("identifier"))
                    && proto.path("name").asText().equals(k.get("name"))) {
                JsonNode routes = proto.path("static-routes").path("static");
                return routes.isArray() ? (com.fasterxml.jackson.databind.node.ArrayNode) routes : null;
            }
        }
        return null;
    }

    private static JsonNode findRoute(JsonNode instance, Path route) {
        com.fasterxml.jackson.databind.node.ArrayNode routes = routesOf(instance, route);
        if (routes != null) {
            for (JsonNode r : routes) {
                if (r.path("prefix").asText().equals(route.getElem(5).getKeyOrThrow("prefix"))) {
                    return r;
                }
            }
        }
        return null;
    }

    /** Removes one route behind Weft's back (as an operator's edit or a lost kernel route would). */
    public synchronized void dropRoute(String instanceKey, String protocol, String prefix) {
        folded(instanceKey);
        byte[] whole = store.get(instanceKey);
        try {
            JsonNode tree = JSON.readTree(whole);
            for (JsonNode proto : tree.path("protocols").path("protocol")) {
                if (!proto.path("name").asText().equals(protocol)) {
                    continue;
                }
                JsonNode routes = proto.path("static-routes").path("static");
                for (int i = routes.size() - 1; i >= 0; i--) {
                    if (routes.get(i).path("prefix").asText().equals(prefix)) {
                        ((com.fasterxml.jackson.databind.node.ArrayNode) routes).remove(i);
                    }
                }
            }
            store.put(instanceKey, JSON.writeValueAsBytes(tree));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
