package io.weft.controller.onos;

import static io.weft.controller.onos.OsgiPropertyConstants.GNMI_MAX_IN_FLIGHT;
import static io.weft.controller.onos.OsgiPropertyConstants.GNMI_MAX_IN_FLIGHT_DEFAULT;
import static io.weft.controller.onos.OsgiPropertyConstants.GNMI_RESYNC_MS;
import static io.weft.controller.onos.OsgiPropertyConstants.GNMI_RESYNC_MS_DEFAULT;
import static io.weft.controller.onos.OsgiPropertyConstants.GNMI_TIMEOUT_MS;
import static io.weft.controller.onos.OsgiPropertyConstants.GNMI_TIMEOUT_MS_DEFAULT;
import static java.util.concurrent.Executors.newSingleThreadExecutor;

import java.util.Dictionary;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import io.weft.plan.FabricPlan;
import io.weft.plan.intent.DeviceIntent;
import io.weft.plan.intent.IntentChanges;
import io.weft.southbound.gnmi.ChannelFactory;
import io.weft.southbound.gnmi.DeviceStatus;
import io.weft.southbound.gnmi.GnmiTarget;
import io.weft.southbound.gnmi.NettyChannels;
import io.weft.southbound.gnmi.Provisioner;
import io.weft.southbound.gnmi.ProvisionerConfig;
import org.onlab.util.Tools;
import org.onosproject.cfg.ComponentConfigService;
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
 * Pushes each plan's device intents to the switches over gNMI with the southbound client the
 * standalone controller uses ({@link Provisioner}, embedded relocated in this bundle): per switch a
 * Capabilities check, one all-or-nothing Set of what changed, a Get to confirm; bounded concurrency,
 * capped backoff, periodic read-back. Intents are rendered on a single thread named
 * {@code weft/gnmi-render-*} (a large fabric takes seconds); plans that arrive meanwhile replace
 * each other, only the latest is provisioned.
 */
@Component(immediate = true, service = WeftDeviceService.class,
        property = {
            GNMI_TIMEOUT_MS + ":Integer=" + GNMI_TIMEOUT_MS_DEFAULT,
            GNMI_RESYNC_MS + ":Integer=" + GNMI_RESYNC_MS_DEFAULT,
            GNMI_MAX_IN_FLIGHT + ":Integer=" + GNMI_MAX_IN_FLIGHT_DEFAULT,
        })
public class GnmiDeviceProvisioner implements WeftDeviceService {
    private final Logger log = LoggerFactory.getLogger(getClass());

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected ComponentConfigService componentConfigService;

    /** TCP (plaintext or TLS) to real switches; tests may open other channels. */
    ChannelFactory channels = new NettyChannels();

    private final List<Runnable> listeners = new CopyOnWriteArrayList<>();
    private final AtomicReference<Handover> next = new AtomicReference<>();
    /** The last plan handed to the provisioner, for a provisioner rebuilt by {@link #modified}. */
    private volatile Handover last;
    private FabricPlan provisioned; // the plan last handed to the provisioner; renderer thread only
    private volatile Provisioner provisioner;
    private volatile ProvisionerConfig config;
    private ExecutorService renderer;

    /** Deadline of each gNMI RPC in ms; default 5000. */
    private int gnmiTimeoutMs = GNMI_TIMEOUT_MS_DEFAULT;

    /** Read-back interval of every switch in ms; default 30000. */
    private int gnmiResyncMs = GNMI_RESYNC_MS_DEFAULT;

    /** Switches synced at once; default 16. */
    private int gnmiMaxInFlight = GNMI_MAX_IN_FLIGHT_DEFAULT;

    /** One plan and the switches to provision with it; a null plan forgets every switch. */
    private static final class Handover {
        final FabricPlan plan;
        final Map<String, GnmiTarget> targets;

        Handover(FabricPlan plan, Map<String, GnmiTarget> targets) {
            this.plan = plan;
            this.targets = targets;
        }
    }

    @Activate
    protected void activate(ComponentContext context) {
        componentConfigService.registerProperties(getClass());
        renderer = newSingleThreadExecutor(Tools.groupedThreads("weft", "gnmi-render-%d", log));
        modified(context);
        if (provisioner == null) {
            replaceProvisioner(ProvisionerConfig.defaults());
        }
        log.info("Started");
    }

    @Deactivate
    protected void deactivate() {
        componentConfigService.unregisterProperties(getClass(), false);
        renderer.shutdownNow();
        Provisioner p = provisioner;
        provisioner = null;
        if (p != null) {
            p.close();
        }
        log.info("Stopped");
    }

    @Modified
    protected void modified(ComponentContext context) {
        if (context == null) {
            return;
        }
        Dictionary<?, ?> props = context.getProperties();
        int timeout = positive(props, GNMI_TIMEOUT_MS, GNMI_TIMEOUT_MS_DEFAULT, gnmiTimeoutMs);
        int resync = positive(props, GNMI_RESYNC_MS, GNMI_RESYNC_MS_DEFAULT, gnmiResyncMs);
        int inFlight = positive(props, GNMI_MAX_IN_FLIGHT, GNMI_MAX_IN_FLIGHT_DEFAULT, gnmiMaxInFlight);
        if (provisioner != null && timeout == gnmiTimeoutMs && resync == gnmiResyncMs && inFlight == gnmiMaxInFlight) {
            return;
        }
        gnmiTimeoutMs = timeout;
        gnmiResyncMs = resync;
        gnmiMaxInFlight = inFlight;
        replaceProvisioner(new ProvisionerConfig(inFlight, timeout, ProvisionerConfig.DEFAULT_BACKOFF_INITIAL_MS,
                ProvisionerConfig.DEFAULT_BACKOFF_MAX_MS, resync));
    }

    /** Logs a change; a value below 1 is refused (logged) and the current one kept. */
    private int positive(Dictionary<?, ?> props, String name, int defaultValue, int current) {
        int v = Tools.getIntegerProperty(props, name, defaultValue);
        if (v < 1) {
            log.warn("{} must be >= 1, keeping {}", name, current);
            return current;
        }
        if (v != current) {
            log.info("{} changed from {} to {}", name, current, v);
        }
        return v;
    }

    /** New tunables need a new provisioner (its config is fixed); the last plan is handed to it again. */
    private synchronized void replaceProvisioner(ProvisionerConfig c) {
        Provisioner old = provisioner;
        Provisioner p = new Provisioner(c, channels, line -> log.info("{}", line));
        p.addListener(this::fireChanged);
        config = c;
        provisioner = p;
        if (old != null) {
            old.close();
        }
        Handover h = last;
        if (h != null) {
            hand(h);
        }
    }

    @Override
    public void provision(FabricPlan plan, Map<String, GnmiTarget> targets) {
        hand(new Handover(plan, Map.copyOf(targets)));
    }

    @Override
    public void release() {
        hand(new Handover(null, Map.of()));
    }

    private void hand(Handover h) {
        ExecutorService r = renderer;
        if (next.getAndSet(h) == null && r != null) {
            r.execute(this::provisionLatest);
        }
    }

    /** Renderer thread: one switch's intent at a time, handed over at once (provisioner pushes meanwhile). */
    private void provisionLatest() {
        Handover h = next.getAndSet(null);
        Provisioner p = provisioner;
        if (h == null || p == null) {
            return;
        }
        try {
            last = h.plan == null ? null : h;
            // A re-plan goes over as route-level changes against the plan this provisioner last took (the
            // provisioner itself falls back to whole intents when it holds another one).
            FabricPlan from = provisioned;
            provisioned = h.plan;
            Map<String, IntentChanges.SwitchChange> changes = null;
            if (from != null && h.plan != null) {
                try {
                    changes = IntentChanges.between(from, h.plan);
                } catch (RuntimeException e) {
                    log.warn("Route-level changes failed, handing whole intents over", e);
                }
            }
            List<String> problems = h.plan == null ? p.provision(Map.of(), Map.of())
                    : p.provisionChanges(h.targets, from, h.plan, changes, sw -> DeviceIntent.render(h.plan, sw));
            problems.forEach(problem -> log.warn("gNMI: {}", problem));
            fireChanged();
        } catch (RuntimeException e) {
            // One bad plan must not kill the rendering thread.
            log.error("Provisioning plan of {} failed", h.plan == null ? "-" : h.plan.fabric().id(), e);
        }
    }

    @Override
    public List<DeviceStatus> devices() {
        Provisioner p = provisioner;
        return p == null ? List.of() : p.devices();
    }

    @Override
    public void addListener(Runnable onChange) {
        listeners.add(onChange);
    }

    @Override
    public void removeListener(Runnable onChange) {
        listeners.remove(onChange);
    }

    private void fireChanged() {
        for (Runnable l : listeners) {
            try {
                l.run();
            } catch (RuntimeException e) {
                log.warn("Device-state listener failed", e);
            }
        }
    }

    ProvisionerConfig config() {
        return config;
    }

    /**
     * Waits until the latest hand-over is rendered and no switch sync is queued or running (tests).
     *
     * @return false on timeout
     */
    boolean awaitIdle(long timeoutMs) throws Exception {
        Future<?> f = renderer.submit(() -> { });
        f.get(timeoutMs, TimeUnit.MILLISECONDS);
        Provisioner p = provisioner;
        return p == null || p.awaitIdle(timeoutMs);
    }
}
