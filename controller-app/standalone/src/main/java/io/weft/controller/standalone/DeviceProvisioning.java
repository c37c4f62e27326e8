package io.weft.controller.standalone;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.weft.fabric.FabricJson;
import io.weft.fabric.GnmiEndpoint;
import io.weft.fabric.Node;
import io.weft.plan.FabricPlan;
import io.weft.plan.intent.DeviceIntent;
import io.weft.plan.intent.IntentChanges;
import io.weft.southbound.gnmi.DeviceState;
import io.weft.southbound.gnmi.DeviceStatus;
import io.weft.southbound.gnmi.DeviceStatusJson;
import io.weft.southbound.gnmi.DeviceStatusMetrics;
import io.weft.southbound.gnmi.GnmiTarget;
import io.weft.southbound.gnmi.Provisioner;

/**
 * The standalone controller's southbound: on every plan, each switch with a {@code gnmi} endpoint in
 * the fabric file gets its device intent through the {@link Provisioner}. Serves what the switches
 * are doing as JSON ({@code GET /devices}), Prometheus gauges ({@code GET /metrics}) and the
 * snapshot's {@code deviceStates}; calls back (debounced) when a switch changes state so the
 * controller can publish it.
 */
final class DeviceProvisioning implements AutoCloseable {
    /** State changes within this window are published as one snapshot version, not one each. */
    static final long STATE_PUBLISH_DEBOUNCE_MS = 500;

    private final Provisioner provisioner;
    private final UnaryOperator<String> env;
    private final Consumer<String> problem;
    private final ScheduledExecutorService debounce;
    private final ExecutorService renderer;
    private final AtomicReference<FabricPlan> nextPlan = new AtomicReference<>();
    private final AtomicBoolean publishScheduled = new AtomicBoolean();
    private volatile Runnable onStatesChanged = () -> { };

    /**
     * @param env reads the environment variables named by {@code gnmi.usernameEnv}/{@code passwordEnv}
     */
    DeviceProvisioning(Provisioner provisioner, UnaryOperator<String> env, Consumer<String> problem) {
        this.provisioner = provisioner;
        this.env = env;
        this.problem = problem;
        this.debounce = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "weft-device-states");
            t.setDaemon(true);
            return t;
        });
        this.renderer = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "weft-provision");
            t.setDaemon(true);
            return t;
        });
        provisioner.addListener(() -> {
            if (publishScheduled.compareAndSet(false, true)) {
                debounce.schedule(() -> {
                    publishScheduled.set(false);
                    try {
                        onStatesChanged.run();
                    } catch (RuntimeException e) {
                        problem.accept("publishing device states failed: " + e);
                    }
                }, STATE_PUBLISH_DEBOUNCE_MS, TimeUnit.MILLISECONDS);
            }
        });
    }

    private FabricPlan provisioned; // the plan last handed to the provisioner; provisioning thread only

    void onStatesChanged(Runnable r) {
        onStatesChanged = r;
    }

    /**
     * Hands the plan's device intents of every switch with a gNMI endpoint to the provisioner, on the
     * provisioning thread: rendering a large fabric takes seconds (k=16: 320 switches, ~160 MB of
     * JSON) and must not delay the snapshot. Plans that arrive while one is being rendered replace
     * each other; only the latest is provisioned.
     */
    void onPlan(FabricPlan plan) {
        if (nextPlan.getAndSet(plan) == null) {
            renderer.execute(this::provisionLatest);
        }
    }

    private void provisionLatest() {
        try {
            FabricPlan plan = nextPlan.getAndSet(null);
            if (plan == null) {
                return;
            }
            Map<String, GnmiTarget> targets = new LinkedHashMap<>();
            for (Node n : plan.fabric().nodes()) {
                GnmiEndpoint g = n.gnmi();
                if (g == null || !n.role().isSwitch()) {
                    continue;
                }
                targets.put(n.id(), GnmiTarget.of(n.id(), g, secret(n, "usernameEnv", g.usernameEnv()),
                        secret(n, "passwordEnv", g.passwordEnv())));
            }
            // A re-plan goes over as route-level changes against the plan provisioned before (a link change
            // at k=16 touches a few routes on 151 switches); the first plan, or one that changed globally,
            // is rendered one switch at a time and handed over at once (all intents as trees are too much
            // at k=16; the provisioner keeps digests once a switch confirmed).
            FabricPlan from = provisioned;
            Map<String, IntentChanges.SwitchChange> changes = null;
            try {
                changes = from == null ? null : IntentChanges.between(from, plan);
            } catch (RuntimeException e) {
                problem.accept("route-level changes failed, handing whole intents over: " + e);
            }
            for (String p : provisioner.provisionChanges(targets, from, plan, changes,
                    sw -> DeviceIntent.render(plan, sw))) {
                problem.accept(p);
            }
            provisioned = plan;
        } catch (RuntimeException e) {
            // One bad plan must not kill the provisioning thread.
            problem.accept("provisioning failed: " + e);
        }
    }

    private String secret(Node n, String field, String name) {
        if (name == null) {
            return null;
        }
        String v = env.apply(name);
        if (v == null) {
            problem.accept("switch " + n.id() + ": gnmi." + field + " names " + name + ", which is not set");
        }
        return v;
    }

    List<DeviceStatus> devices() {
        return provisioner.devices();
    }

    /** device id to state name, the part of deviceStates that decides whether a new version is due. */
    Map<String, String> stateNames() {
        return DeviceStatusJson.names(provisioner.devices());
    }

    /** The snapshot's {@code deviceStates} (fabric-snapshot.schema.json); empty when no switch has gNMI. */
    ObjectNode snapshotStates() {
        return DeviceStatusJson.snapshotStates(provisioner.devices());
    }

    /** {@code GET /devices}. */
    ObjectNode devicesJson() {
        ObjectNode root = FabricJson.mapper().createObjectNode();
        ObjectNode counts = root.putObject("counts");
        for (DeviceState s : DeviceState.values()) {
            counts.put(DeviceStatusJson.name(s), 0);
        }
        ArrayNode list = root.putArray("devices");
        for (DeviceStatus d : provisioner.devices()) {
            counts.put(DeviceStatusJson.name(d.state()), counts.get(DeviceStatusJson.name(d.state())).asInt() + 1);
            ObjectNode o = list.addObject();
            o.put("device", d.device());
            DeviceStatusJson.putStatus(o, d);
        }
        return root;
    }

    /** {@code GET /metrics}: Prometheus text exposition format 0.0.4. */
    String metrics() {
        return DeviceStatusMetrics.text(provisioner.devices());
    }

    @Override
    public void close() {
        renderer.shutdownNow();
        debounce.shutdownNow();
        provisioner.close();
    }
}
