package io.weft.southbound.gnmi;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

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
import com.github.gnmi.proto.TypedValue;
import com.github.gnmi.proto.Update;
import com.github.gnmi.proto.gNMIGrpc;
import com.google.protobuf.ByteString;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.MetadataUtils;

/**
 * One switch's gNMI connection: the Capabilities check, Set (replace and delete in one
 * all-or-nothing request) and Get of the subtrees Weft owns, each RPC under its own deadline so a
 * slow switch costs at most that long. Not thread-safe by design: the provisioner runs at most one
 * sync per switch at a time.
 */
public final class GnmiSession implements AutoCloseable {
    /** Models a Weft switch must announce (ModelData.name), per the gNMI wire contract. */
    public static final List<String> REQUIRED_MODELS =
            List.of("sonic-db", "openconfig-interfaces", "openconfig-network-instance");

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Metadata.Key<String> USERNAME = Metadata.Key.of("username", Metadata.ASCII_STRING_MARSHALLER);
    private static final Metadata.Key<String> PASSWORD = Metadata.Key.of("password", Metadata.ASCII_STRING_MARSHALLER);

    private final GnmiTarget target;
    private final ManagedChannel channel;
    private final gNMIGrpc.gNMIBlockingStub stub;
    private final long rpcTimeoutMs;

    public GnmiSession(GnmiTarget target, ManagedChannel channel, long rpcTimeoutMs) {
        this.target = target;
        this.channel = channel;
        this.rpcTimeoutMs = rpcTimeoutMs;
        gNMIGrpc.gNMIBlockingStub s = gNMIGrpc.newBlockingStub(channel);
        if (target.username() != null) {
            Metadata md = new Metadata();
            md.put(USERNAME, target.username());
            if (target.password() != null) {
                md.put(PASSWORD, target.password());
            }
            s = s.withInterceptors(MetadataUtils.newAttachHeadersInterceptor(md));
        }
        this.stub = s;
    }

    public GnmiTarget target() {
        return target;
    }

    /**
     * Asks the switch what it supports.
     *
     * @throws UnsupportedSwitchException it lacks JSON_IETF or a required model (the message lists what)
     * @throws StatusRuntimeException     the RPC failed (unreachable, deadline, ...)
     */
    public CapabilityResponse checkCapabilities() throws UnsupportedSwitchException {
        CapabilityResponse caps = deadline().capabilities(CapabilityRequest.getDefaultInstance());
        List<String> missing = new ArrayList<>();
        if (!caps.getSupportedEncodingsList().contains(Encoding.JSON_IETF)) {
            missing.add("encoding JSON_IETF");
        }
        Set<String> models = new TreeSet<>();
        for (ModelData m : caps.getSupportedModelsList()) {
            models.add(m.getName());
        }
        for (String m : REQUIRED_MODELS) {
            if (!models.contains(m)) {
                missing.add("model " + m);
            }
        }
        if (!missing.isEmpty()) {
            throw new UnsupportedSwitchException("switch " + target.switchId() + " lacks " + String.join(", ", missing)
                    + " (announces models " + models + ", encodings " + caps.getSupportedEncodingsList() + ")");
        }
        return caps;
    }

    /**
     * One all-or-nothing SetRequest: {@code prefix.target} = the switch, each op a replace Update with
     * its JSON value as json_ietf_val, each path of {@code delete} a delete.
     *
     * @throws StatusRuntimeException the switch refused (INVALID_ARGUMENT / FAILED_PRECONDITION name the
     *                                path) or the RPC failed
     */
    public void set(Collection<IntentOp> replace, Collection<Path> delete) {
        List<Update> updates = new ArrayList<>();
        for (IntentOp op : replace) {
            if (op.json() == null) {
                throw new IllegalStateException("op " + op.key() + " of " + target.switchId()
                        + " has no value to send");
            }
            updates.add(update(op.path(), ByteString.copyFrom(op.json())));
        }
        setUpdates(updates, delete);
    }

    /** A replace Update of one path with a canonical JSON value. */
    static Update update(Path path, ByteString json) {
        return Update.newBuilder().setPath(path).setVal(TypedValue.newBuilder().setJsonIetfVal(json)).build();
    }

    /** One all-or-nothing SetRequest of ready-made replace Updates (whole subtrees or single list entries). */
    void setUpdates(Collection<Update> replace, Collection<Path> delete) {
        SetRequest.Builder req = SetRequest.newBuilder().setPrefix(Path.newBuilder().setTarget(target.switchId()));
        req.addAllReplace(replace);
        req.addAllDelete(delete);
        deadline().set(req.build());
    }

    /**
     * Reads the given subtrees back (CONFIG, JSON_IETF). A path the switch answers without a value is
     * left out of the result; so is the whole answer when the switch says NOT_FOUND (nothing of
     * Weft's is there yet, e.g. after a restart with an empty kernel).
     *
     * @return canonical path to the digest of the confirmed value ({@link CanonicalJson#digest})
     * @throws StatusRuntimeException the RPC failed for another reason
     */
    public Map<String, String> get(Collection<IntentOp> ops) {
        Map<String, String> out = new HashMap<>();
        if (ops.isEmpty()) {
            return out;
        }
        List<Path> paths = new ArrayList<>();
        Map<String, String> expected = new HashMap<>();
        for (IntentOp op : ops) {
            paths.add(op.path());
            expected.put(op.key(), op.digest());
        }
        getRaw(paths).forEach((key, raw) -> {
            String d = digest(raw, expected.get(key));
            if (d != null) {
                out.put(key, d);
            }
        });
        return out;
    }

    /**
     * Reads the given paths back (CONFIG, JSON_IETF) as the switch answers them.
     *
     * @return canonical path to the value's bytes; empty when the switch says NOT_FOUND
     */
    Map<String, byte[]> getRaw(Collection<Path> paths) {
        Map<String, byte[]> out = new HashMap<>();
        if (paths.isEmpty()) {
            return out;
        }
        GetRequest.Builder req = GetRequest.newBuilder()
                .setPrefix(Path.newBuilder().setTarget(target.switchId()))
                .setType(GetRequest.DataType.CONFIG)
                .setEncoding(Encoding.JSON_IETF);
        req.addAllPath(paths);
        GetResponse resp;
        try {
            resp = deadline().get(req.build());
        } catch (StatusRuntimeException e) {
            if (e.getStatus().getCode() == Status.Code.NOT_FOUND) {
                return out;
            }
            throw e;
        }
        for (Notification n : resp.getNotificationList()) {
            for (Update u : n.getUpdateList()) {
                TypedValue v = u.getVal();
                ByteString bytes;
                if (v.getValueCase() == TypedValue.ValueCase.JSON_IETF_VAL) {
                    bytes = v.getJsonIetfVal();
                } else if (v.getValueCase() == TypedValue.ValueCase.JSON_VAL) {
                    bytes = v.getJsonVal();
                } else {
                    continue;
                }
                out.put(GnmiPaths.format(n.getPrefix(), u.getPath()), bytes.toByteArray());
            }
        }
        return out;
    }

    /**
     * The canonical digest of a read-back value. Fast path: a switch that answers in canonical form
     * (as Weft sent it) is confirmed by hashing the bytes as they are, without parsing what may be
     * megabytes of routes; anything else is parsed and canonicalised first.
     */
    static String digest(byte[] raw, String expected) {
        if (expected != null) {
            String asIs = CanonicalJson.digest(raw);
            if (asIs.equals(expected)) {
                return asIs;
            }
        }
        JsonNode tree = parse(raw);
        return tree == null ? null : CanonicalJson.digest(tree);
    }

    /** The value as a tree, or null when it does not parse (it then counts as "not confirmed": pushed again). */
    static JsonNode parse(byte[] raw) {
        try {
            return JSON.readTree(raw);
        } catch (IOException e) {
            return null;
        }
    }

    private gNMIGrpc.gNMIBlockingStub deadline() {
        return stub.withDeadlineAfter(rpcTimeoutMs, TimeUnit.MILLISECONDS);
    }

    /** Drops the connection at once (in-flight RPCs fail with CANCELLED/UNAVAILABLE). */
    @Override
    public void close() {
        channel.shutdownNow();
    }

    /** The switch answers but cannot be a Weft switch: it lacks an encoding or model Weft needs. */
    public static final class UnsupportedSwitchException extends Exception {
        private static final long serialVersionUID = 1L;

        UnsupportedSwitchException(String message) {
            super(message);
        }
    }
}
