package io.weft.controller.onos;

import static io.weft.controller.onos.OsgiPropertyConstants.KAFKA_BOOTSTRAP;
import static io.weft.controller.onos.OsgiPropertyConstants.KAFKA_BOOTSTRAP_DEFAULT;
import static io.weft.controller.onos.OsgiPropertyConstants.PUBLISH_RETRY_MS;
import static io.weft.controller.onos.OsgiPropertyConstants.PUBLISH_RETRY_MS_DEFAULT;
import static io.weft.controller.onos.OsgiPropertyConstants.REPLAN_DEBOUNCE_MS;
import static io.weft.controller.onos.OsgiPropertyConstants.REPLAN_DEBOUNCE_MS_DEFAULT;
import static java.util.concurrent.Executors.newSingleThreadScheduledExecutor;

import java.util.ArrayList;
import java.util.Dictionary;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.weft.contracts.LinkState;
import io.weft.fabric.FabricJson;
import io.weft.fabric.FabricValidator;
import io.weft.plan.FabricPlan;
import io.weft.plan.PlanException;
import io.weft.plan.Planner;
import io.weft.plan.SnapshotJson;
import io.weft.plan.intent.DeviceIntent;
import io.weft.southbound.gnmi.DeviceStatus;
import io.weft.southbound.gnmi.DeviceStatusJson;
import io.weft.southbound.gnmi.GnmiTarget;
import org.onlab.util.Tools;
import org.onosproject.cfg.ComponentConfigService;
import org.onosproject.core.ApplicationId;
import org.onosproject.mastership.MastershipEvent;
import org.onosproject.mastership.MastershipListener;
import org.onosproject.mastership.MastershipService;
import org.onosproject.net.Device;
import org.onosproject.net.DeviceId;
import org.onosproject.net.config.NetworkConfigEvent;
import org.onosproject.net.config.NetworkConfigListener;
import org.onosproject.net.config.NetworkConfigService;
import org.onosproject.net.device.DeviceEvent;
import org.onosproject.net.device.DeviceListener;
import org.onosproject.net.device.DeviceService;
import org.onosproject.net.link.LinkEvent;
import org.onosproject.net.link.LinkListener;
import org.onosproject.net.link.LinkService;
import org.osgi.service.component.ComponentContext;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Modified;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the Weft plan current: re-plans when a Weft device, a link between Weft devices or the
 * weft netcfg changes, and publishes the new fabric snapshot.
 *
 * <p>The plan is fabric-wide, so exactly one ONOS instance computes it: the master of the
 * lowest-id Weft device that has a master ({@link #isPlanOwner()}). Every instance receives the
 * same events; the others ignore them. When mastership moves, the new owner seeds itself from the
 * last snapshot on Kafka (same SIDs, next version) and re-plans; an instance that stops being the
 * owner drops its plan so that it re-seeds if ownership comes back. Without Kafka there is nothing
 * to seed from: allocated (not configured) SIDs may then move on failover and versions restart.
 *
 * <p>Events only schedule work; planning runs on a named single-thread executor, debounced by
 * {@value OsgiPropertyConstants#REPLAN_DEBOUNCE_MS} so a burst of link events costs one plan. Each
 * run catches and logs its own failure and keeps the last good plan; a snapshot that did not
 * reach Kafka is published again after {@value OsgiPropertyConstants#PUBLISH_RETRY_MS}.
 *
 * <p>Each plan goes, with the gNMI endpoints of the switches' netcfg, to {@link WeftDeviceService},
 * which pushes the device intents; when a switch changes state (in sync, pending, unreachable,
 * rejected) the snapshot is published again with the new {@code deviceStates}, as the standalone
 * controller does, at most once per {@value #STATE_PUBLISH_DEBOUNCE_MS} ms.
 */
@Component(immediate = true, service = {WeftPlanService.class, WeftLinkStateService.class},
        property = {
            REPLAN_DEBOUNCE_MS + ":Integer=" + REPLAN_DEBOUNCE_MS_DEFAULT,
            KAFKA_BOOTSTRAP + "=" + KAFKA_BOOTSTRAP_DEFAULT,
            PUBLISH_RETRY_MS + ":Integer=" + PUBLISH_RETRY_MS_DEFAULT,
        })
public class PlanProvisioner implements WeftPlanService, WeftLinkStateService {
    /** How long a drain waits for its re-plan before answering that it could not. */
    static final long DRAIN_TIMEOUT_MS = 30_000;

    /** Switch state changes within this window are published as one snapshot version, not one each. */
    static final long STATE_PUBLISH_DEBOUNCE_MS = 500;

    private static final Set<DeviceEvent.Type> DEVICE_TYPES = EnumSet.of(
            DeviceEvent.Type.DEVICE_ADDED, DeviceEvent.Type.DEVICE_REMOVED,
            DeviceEvent.Type.DEVICE_AVAILABILITY_CHANGED, DeviceEvent.Type.PORT_ADDED,
            DeviceEvent.Type.PORT_UPDATED, DeviceEvent.Type.PORT_REMOVED);
    private static final Set<NetworkConfigEvent.Type> CONFIG_TYPES = EnumSet.of(
            NetworkConfigEvent.Type.CONFIG_ADDED, NetworkConfigEvent.Type.CONFIG_UPDATED,
            NetworkConfigEvent.Type.CONFIG_REMOVED);

    private final Logger log = LoggerFactory.getLogger(getClass());

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected MainComponent mainComponent;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected DeviceService deviceService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected LinkService linkService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected NetworkConfigService configService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected MastershipService mastershipService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected ComponentConfigService componentConfigService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected WeftDeviceService switchProvisioning;

    /** Replaced only on the planning thread once active (tests set it before activation). */
    volatile SnapshotPublisher publisher = new LoggingSnapshotPublisher();

    private final DeviceListener deviceListener = new InternalDeviceListener();
    private final LinkListener linkListener = new InternalLinkListener();
    private final NetworkConfigListener configListener = new InternalConfigListener();
    private final MastershipListener mastershipListener = new InternalMastershipListener();
    private final AtomicBoolean replanPending = new AtomicBoolean();
    // Links an operator drained. Written on the planning thread only; seeded from the last snapshot on failover.
    private final Set<String> drained = new java.util.LinkedHashSet<>();
    private final AtomicBoolean statesPending = new AtomicBoolean();
    private final Runnable statesListener = this::requestStatesPublish;

    /** Quiet time in ms after a topology or config event before re-planning; default 200. */
    private volatile int replanDebounceMs = REPLAN_DEBOUNCE_MS_DEFAULT;

    /** Wait in ms before publishing again a snapshot that did not reach Kafka; default 5000. */
    private volatile int publishRetryMs = PUBLISH_RETRY_MS_DEFAULT;

    /** Kafka bootstrap servers for the weft.fabric topic; empty (default): snapshots are only logged. */
    private volatile String kafkaBootstrap = KAFKA_BOOTSTRAP_DEFAULT;

    private volatile PlanState current;
    /** Highest version known to have reached the publisher (planning thread only). */
    private long publishedVersion;
    /** What the last re-plans logged, so that a lasting problem is logged once (planning thread only). */
    private List<String> lastProblems = List.of();
    private List<String> lastInvalid = List.of();
    private List<String> lastGnmiProblems = List.of();
    /** What the switches were last handed (planning thread only). */
    private FabricPlan provisionedPlan;
    private Map<String, GnmiTarget> provisionedTargets = Map.of();
    /** Switch states in the last published snapshot (planning thread only). */
    private Map<String, String> publishedStates = Map.of();
    private ScheduledExecutorService executor;
    private ApplicationId appId;

    @Activate
    protected void activate(ComponentContext context) {
        appId = mainComponent.appId();
        componentConfigService.registerProperties(getClass());
        executor = newSingleThreadScheduledExecutor(Tools.groupedThreads("weft", "plan-%d", log));
        modified(context);
        deviceService.addListener(deviceListener);
        linkService.addListener(linkListener);
        configService.addListener(configListener);
        mastershipService.addListener(mastershipListener);
        switchProvisioning.addListener(statesListener);
        if (isPlanOwner()) {
            requestReplan("activation");
        }
        log.info("Started");
    }

    @Deactivate
    protected void deactivate() {
        switchProvisioning.removeListener(statesListener);
        mastershipService.removeListener(mastershipListener);
        configService.removeListener(configListener);
        linkService.removeListener(linkListener);
        deviceService.removeListener(deviceListener);
        componentConfigService.unregisterProperties(getClass(), false);
        executor.shutdownNow();
        executor = null;
        publisher.close();
        log.info("Stopped");
    }

    @Modified
    protected void modified(ComponentContext context) {
        if (context == null) {
            return;
        }
        Dictionary<?, ?> props = context.getProperties();
        int debounce = Tools.getIntegerProperty(props, REPLAN_DEBOUNCE_MS, REPLAN_DEBOUNCE_MS_DEFAULT);
        if (debounce < 0) {
            log.warn("{} must be >= 0, keeping {}", REPLAN_DEBOUNCE_MS, replanDebounceMs);
        } else if (debounce != replanDebounceMs) {
            log.info("{} changed from {} to {}", REPLAN_DEBOUNCE_MS, replanDebounceMs, debounce);
            replanDebounceMs = debounce;
        }
        int retry = Tools.getIntegerProperty(props, PUBLISH_RETRY_MS, PUBLISH_RETRY_MS_DEFAULT);
        if (retry < 0) {
            log.warn("{} must be >= 0, keeping {}", PUBLISH_RETRY_MS, publishRetryMs);
        } else if (retry != publishRetryMs) {
            log.info("{} changed from {} to {}", PUBLISH_RETRY_MS, publishRetryMs, retry);
            publishRetryMs = retry;
        }
        String bootstrap = Objects.toString(Tools.get(props, KAFKA_BOOTSTRAP), "").trim();
        if (!bootstrap.equals(kafkaBootstrap)) {
            log.info("{} changed from '{}' to '{}'", KAFKA_BOOTSTRAP, kafkaBootstrap, bootstrap);
            kafkaBootstrap = bootstrap;
            executor.execute(() -> switchPublisher(bootstrap));
        }
    }

    /** Planning thread: replaces the publisher and sends the current snapshot to the new one. */
    private void switchPublisher(String bootstrap) {
        SnapshotPublisher next;
        try {
            next = bootstrap.isEmpty() ? new LoggingSnapshotPublisher() : KafkaSnapshotPublisher.connect(bootstrap);
        } catch (RuntimeException e) {
            log.warn("{} '{}' not usable ({}); snapshots go to the ONOS log", KAFKA_BOOTSTRAP, bootstrap,
                    e.getMessage());
            next = new LoggingSnapshotPublisher();
        }
        publisher.close();
        publisher = next;
        publishedVersion = 0;
        log.info("Snapshots go to {}", next.describe());
        PlanState s = current;
        if (s != null) {
            publish(s);
        }
    }

    @Override
    public String snapshotDestination() {
        return publisher.describe();
    }

    int replanDebounceMs() {
        return replanDebounceMs;
    }

    @Override
    public PlanState current() {
        return current;
    }

    @Override
    public ObjectNode intent(String deviceOrNodeId) {
        PlanState s = current;
        if (s == null) {
            return null;
        }
        String nodeId = deviceOrNodeId;
        for (Map.Entry<DeviceId, String> e : s.built().nodeIds().entrySet()) {
            if (e.getKey().toString().equals(deviceOrNodeId)) {
                nodeId = e.getValue();
            }
        }
        if (!s.plan().nodeIds().containsKey(nodeId)) {
            return null;
        }
        return DeviceIntent.render(s.plan(), nodeId);
    }

    @Override
    public boolean isPlanOwner() {
        for (DeviceId d : weftDevices()) {
            if (mastershipService.getMasterFor(d) != null) {
                return mastershipService.isLocalMaster(d);
            }
        }
        return false;
    }

    /** Devices with a weft netcfg, lowest id first. */
    private List<DeviceId> weftDevices() {
        List<DeviceId> out = new ArrayList<>();
        for (Device d : deviceService.getDevices()) {
            if (isWeftDevice(d.id())) {
                out.add(d.id());
            }
        }
        out.sort((a, b) -> a.toString().compareTo(b.toString()));
        return out;
    }

    private boolean isWeftDevice(DeviceId id) {
        return configService.getConfig(id, WeftDeviceConfig.class) != null;
    }

    /** Schedules one re-plan after the debounce time; events arriving meanwhile join it. */
    void requestReplan(String reason) {
        requestReplan(reason, replanDebounceMs);
    }

    private void requestReplan(String reason, long delayMs) {
        ScheduledExecutorService ex = executor;
        if (ex == null || !replanPending.compareAndSet(false, true)) {
            return;
        }
        log.debug("Re-plan scheduled: {}", reason);
        ex.schedule(this::replan, delayMs, TimeUnit.MILLISECONDS);
    }

    /** Runs on the planning thread. Keeps the last good plan when anything goes wrong. */
    private void replan() {
        replanPending.set(false);
        try {
            if (!isPlanOwner()) {
                return; // ownership moved after the event was accepted
            }
            BuiltFabric built = new OnosFabricBuilder(deviceService, linkService, configService, appId).build();
            if (!built.problems().equals(lastProblems)) { // once per change, not on every event
                built.problems().forEach(p -> log.warn("Not in the fabric: {}", p));
                lastProblems = built.problems();
            }
            if (built.nodeIds().isEmpty()) {
                log.info("No Weft devices yet (add a \"weft\" netcfg to the fabric switches)");
                return;
            }
            List<String> invalid = FabricValidator.validate(built.fabric());
            if (!invalid.isEmpty()) {
                if (!invalid.equals(lastInvalid)) {
                    log.warn("Fabric not planned, {} problem(s): {}", invalid.size(), String.join("; ", invalid));
                    lastInvalid = invalid;
                }
                return;
            }
            lastInvalid = List.of();
            PlanState previous = current;
            FabricPlan previousPlan = previous == null ? null : previous.plan();
            long lastVersion = previous == null ? 0 : previous.version();
            if (previous == null) {
                ObjectNode seed = lastPublished(built.fabric().id());
                if (seed != null) {
                    previousPlan = SnapshotJson.planFromTree(seed);
                    lastVersion = seed.path("version").asLong();
                    if (drained.isEmpty()) {
                        SnapshotJson.linkStatesFromTree(seed).forEach((id, st) -> {
                            if (st == LinkState.DRAINED) {
                                drained.add(id); // an operator's drain outlives a failover
                            }
                        });
                    }
                    log.info("Seeded from snapshot v{} of fabric {} on {}", lastVersion, built.fabric().id(),
                            publisher.describe());
                }
            }
            built = withDrains(built);
            FabricPlan plan = Planner.plan(built.fabric(), previousPlan);
            if (previous != null && sameContent(previous, built, plan)) {
                provisionSwitches(previous.plan(), built); // a gnmi netcfg change alone lands here
                if (publishedVersion < previous.version()) {
                    publish(previous); // an earlier publish failed: this is the retry
                }
                return;
            }
            long version = lastVersion + 1;
            ObjectNode snapshot = withDeviceStates(SnapshotJson.toTree(plan, built.linkStates(), version));
            PlanState next = new PlanState(built, plan, snapshot, version);
            current = next;
            provisionSwitches(plan, built);
            publish(next);
        } catch (PlanException e) {
            log.warn("Fabric not planned: {}", e.getMessage());
        } catch (RuntimeException e) {
            log.error("Re-planning failed; keeping plan v{}", current == null ? 0 : current.version(), e);
        }
    }

    /** The built fabric with drained links marked (a link ONOS sees down stays down). */
    private BuiltFabric withDrains(BuiltFabric built) {
        if (drained.isEmpty()) {
            return built;
        }
        Map<String, LinkState> states = new LinkedHashMap<>(built.linkStates());
        for (String id : drained) {
            states.computeIfPresent(id, (k, st) -> st == LinkState.UP ? LinkState.DRAINED : st);
        }
        return new BuiltFabric(built.fabric(), states, built.nodeIds(), built.problems());
    }

    @Override
    public LinkStateChange setDrained(String linkId, boolean drain) {
        ScheduledExecutorService ex = executor;
        if (ex == null) {
            throw new IllegalStateException("the Weft app is not active");
        }
        Future<LinkStateChange> f = ex.submit(() -> drainOnPlanningThread(linkId, drain));
        try {
            return f.get(DRAIN_TIMEOUT_MS, TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.ExecutionException e) {
            if (e.getCause() instanceof RuntimeException) {
                throw (RuntimeException) e.getCause();
            }
            throw new IllegalStateException("draining " + linkId + " failed: " + e.getCause(), e.getCause());
        } catch (java.util.concurrent.TimeoutException e) {
            f.cancel(false);
            throw new IllegalStateException("re-planning for the drain of " + linkId + " took over "
                    + DRAIN_TIMEOUT_MS + " ms");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while draining " + linkId);
        }
    }

    private LinkStateChange drainOnPlanningThread(String linkId, boolean drain) {
        if (!isPlanOwner()) {
            throw new IllegalStateException("this ONOS instance does not plan the fabric (the master of the "
                    + "lowest-id Weft device does): send the drain to that instance");
        }
        PlanState s = current;
        if (s == null) {
            throw new IllegalStateException("no fabric planned yet");
        }
        if (s.plan().fabric().link(linkId) == null) {
            throw new IllegalArgumentException("no link \"" + linkId + "\" in fabric " + s.plan().fabric().id());
        }
        boolean changed = drain ? drained.add(linkId) : drained.remove(linkId);
        if (changed) {
            log.info("Link {} {} by an operator", linkId, drain ? "drained" : "returned to service");
            replan();
        }
        PlanState after = current;
        LinkState st = after.built().linkStates().getOrDefault(linkId, LinkState.UP);
        if (changed && st != LinkState.DOWN && (st == LinkState.DRAINED) != drain) {
            // The re-plan kept the previous plan (see the log): undo, so the set matches what was published.
            if (drain) {
                drained.remove(linkId);
            } else {
                drained.add(linkId);
            }
            throw new IllegalStateException("re-planning failed, link " + linkId
                    + " keeps its state (see the ONOS log)");
        }
        return new LinkStateChange(linkId, st.json(), after.version(), changed);
    }

    /**
     * Planning thread: hands the plan to the gNMI provisioning with the endpoint of every Weft switch
     * that has a {@code gnmi} netcfg, when the plan or an endpoint changed.
     */
    private void provisionSwitches(FabricPlan plan, BuiltFabric built) {
        Map<String, GnmiTarget> targets = new LinkedHashMap<>();
        List<String> problems = new ArrayList<>();
        for (Map.Entry<DeviceId, String> e : built.nodeIds().entrySet()) {
            WeftDeviceConfig cfg = configService.getConfig(e.getKey(), WeftDeviceConfig.class);
            if (cfg == null || !cfg.hasGnmi() || !plan.nodeIds().containsKey(e.getValue())) {
                continue;
            }
            try {
                targets.put(e.getValue(), cfg.gnmiTarget(e.getValue()));
            } catch (IllegalArgumentException ex) {
                problems.add(e.getKey() + ": " + ex.getMessage());
            }
        }
        if (!problems.equals(lastGnmiProblems)) {
            problems.forEach(p -> log.warn("Not provisioned over gNMI: {}", p));
            lastGnmiProblems = problems;
        }
        if (plan == provisionedPlan && targets.equals(provisionedTargets)) {
            return;
        }
        provisionedPlan = plan;
        provisionedTargets = targets;
        switchProvisioning.provision(plan, targets);
    }

    /** Sets the snapshot's {@code deviceStates} (left out when no switch is provisioned over gNMI). */
    private ObjectNode withDeviceStates(ObjectNode snapshot) {
        List<DeviceStatus> devices = switchProvisioning.devices();
        publishedStates = DeviceStatusJson.names(devices);
        snapshot.remove("deviceStates");
        if (!devices.isEmpty()) {
            snapshot.set("deviceStates", DeviceStatusJson.snapshotStates(devices));
        }
        return snapshot;
    }

    /** Provisioning thread: a switch may have changed state; publish (debounced) on the planning thread. */
    private void requestStatesPublish() {
        ScheduledExecutorService ex = executor;
        if (ex != null && statesPending.compareAndSet(false, true)) {
            ex.schedule(this::publishStates, STATE_PUBLISH_DEBOUNCE_MS, TimeUnit.MILLISECONDS);
        }
    }

    /** Planning thread: the same plan as the next version when a switch's state name changed. */
    private void publishStates() {
        statesPending.set(false);
        try {
            PlanState s = current;
            if (s == null || DeviceStatusJson.names(switchProvisioning.devices()).equals(publishedStates)) {
                return;
            }
            long version = s.version() + 1;
            ObjectNode snapshot = s.snapshot().deepCopy();
            snapshot.put("version", version);
            PlanState next = new PlanState(s.built(), s.plan(), withDeviceStates(snapshot), version);
            current = next;
            publish(next);
        } catch (RuntimeException e) {
            log.error("Publishing switch states failed", e);
        }
    }

    /** The last snapshot of this fabric on the publisher, or null (none, unreadable, or unusable). */
    private ObjectNode lastPublished(String fabricId) {
        try {
            ObjectNode seed = publisher.lastPublished(fabricId);
            if (seed != null) {
                SnapshotJson.planFromTree(seed); // unusable seeds are dropped here, not mid-plan
            }
            return seed;
        } catch (Exception e) {
            log.warn("Could not read the last snapshot of {} from {} ({}); planning from scratch", fabricId,
                    publisher.describe(), e.getMessage());
            return null;
        }
    }

    /** Planning thread. On failure the snapshot is published again after the retry delay. */
    private void publish(PlanState s) {
        String fabricId = s.plan().fabric().id();
        try {
            publisher.publish(fabricId, s.version(), s.snapshot());
            publishedVersion = Math.max(publishedVersion, s.version());
        } catch (Exception e) {
            log.warn("Snapshot v{} of {} not published to {} ({}); retrying in {} ms", s.version(), fabricId,
                    publisher.describe(), e.getMessage(), publishRetryMs);
            requestReplan("publish retry", publishRetryMs);
        }
    }

    /** Planning thread: this instance no longer owns the plan; a later owner period re-seeds. */
    private void dropPlan() {
        if (current != null && !isPlanOwner()) {
            log.info("No longer the plan owner; dropping plan v{} and leaving the switches to the new owner",
                    current.version());
            current = null;
            publishedVersion = 0;
            provisionedPlan = null;
            provisionedTargets = Map.of();
            switchProvisioning.release();
        }
    }

    /** True when nothing a consumer sees would change: no new version for a no-op event. */
    private static boolean sameContent(PlanState previous, BuiltFabric built, FabricPlan plan) {
        return previous.built().linkStates().equals(built.linkStates())
                && FabricJson.toTree(previous.plan().fabric()).equals(FabricJson.toTree(built.fabric()))
                && SnapshotJson.planTree(previous.plan()).equals(SnapshotJson.planTree(plan));
    }

    /** Waits until every task queued so far has run (tests; not for production callers). */
    void awaitIdle() throws Exception {
        Future<?> f = executor.schedule(() -> { }, replanDebounceMs, TimeUnit.MILLISECONDS);
        f.get(30, TimeUnit.SECONDS);
    }

    private class InternalDeviceListener implements DeviceListener {
        @Override
        public boolean isRelevant(DeviceEvent event) {
            return DEVICE_TYPES.contains(event.type()) && isWeftDevice(event.subject().id()) && isPlanOwner();
        }

        @Override
        public void event(DeviceEvent event) {
            requestReplan(event.type() + " " + event.subject().id());
        }
    }

    private class InternalLinkListener implements LinkListener {
        @Override
        public boolean isRelevant(LinkEvent event) {
            return isWeftDevice(event.subject().src().deviceId()) && isWeftDevice(event.subject().dst().deviceId())
                    && isPlanOwner();
        }

        @Override
        public void event(LinkEvent event) {
            requestReplan(event.type() + " " + event.subject().src() + "->" + event.subject().dst());
        }
    }

    private class InternalConfigListener implements NetworkConfigListener {
        @Override
        public boolean isRelevant(NetworkConfigEvent event) {
            return CONFIG_TYPES.contains(event.type())
                    && (event.configClass() == WeftDeviceConfig.class || event.configClass() == WeftAppConfig.class)
                    && isPlanOwner();
        }

        @Override
        public void event(NetworkConfigEvent event) {
            requestReplan(event.type() + " " + event.subject());
        }
    }

    private class InternalMastershipListener implements MastershipListener {
        @Override
        public boolean isRelevant(MastershipEvent event) {
            return event.type() == MastershipEvent.Type.MASTER_CHANGED && isWeftDevice(event.subject());
        }

        @Override
        public void event(MastershipEvent event) {
            if (isPlanOwner()) {
                requestReplan("mastership of " + event.subject());
            } else {
                ScheduledExecutorService ex = executor;
                if (ex != null) {
                    ex.execute(PlanProvisioner.this::dropPlan);
                }
            }
        }
    }
}
