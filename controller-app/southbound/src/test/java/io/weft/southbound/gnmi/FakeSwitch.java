package io.weft.southbound.gnmi;

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
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

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

    public final String name;
    /** Canonical path to the value's JSON as received (bytes: a k=16 fabric's config would not fit as trees). */
    public final Map<String, byte[]> store = new ConcurrentHashMap<>();
    public final List<SetRequest> sets = new CopyOnWriteArrayList<>();
    public final AtomicInteger gets = new AtomicInteger();
    public volatile List<String> models = GnmiSession.REQUIRED_MODELS;
    public volatile String rejectPath;       // a Set touching this path (plain, without origin) is INVALID_ARGUMENT
    public volatile long delayMs;            // every RPC answers this late
    public volatile boolean dropNextSet;     // the next Set kills the server (connection drop mid-push)
    public volatile boolean reorder;         // Get answers with object members in reverse order

    /** The stored value of a path as a JSON tree, or null. */
    public JsonNode value(String key) {
        byte[] v = store.get(key);
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
            NettyServerBuilder b = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", port));
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
        return start();
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
        if (delayMs > 0) {
            try {
                Thread.sleep(delayMs);
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
            sets.add(request);
            SetResponse.Builder resp = SetResponse.newBuilder();
            for (Path d : request.getDeleteList()) {
                store.remove(GnmiPaths.format(request.getPrefix(), d));
                resp.addResponse(UpdateResult.newBuilder().setPath(d).setOp(UpdateResult.Operation.DELETE));
            }
            for (Update u : request.getReplaceList()) {
                store.put(GnmiPaths.format(request.getPrefix(), u.getPath()), u.getVal().getJsonIetfVal().toByteArray());
                resp.addResponse(UpdateResult.newBuilder().setPath(u.getPath()).setOp(UpdateResult.Operation.REPLACE));
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
                byte[] v = store.get(GnmiPaths.format(request.getPrefix(), p));
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
}
