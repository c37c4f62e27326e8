package io.weft.controller.onos;

import static io.weft.controller.onos.OsgiPropertyConstants.KAFKA_BOOTSTRAP;
import static io.weft.controller.onos.OsgiPropertyConstants.PUBLISH_RETRY_MS;
import static io.weft.controller.onos.OsgiPropertyConstants.REPLAN_DEBOUNCE_MS;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.onosproject.cfg.ComponentConfigAdapter;
import org.onosproject.event.Event;
import org.onosproject.event.EventListener;
import org.onosproject.mastership.MastershipEvent;
import org.onosproject.mastership.MastershipInfo;
import org.onosproject.net.DeviceId;
import org.onosproject.net.Link;
import org.onosproject.net.config.NetworkConfigEvent;
import org.onosproject.net.device.DeviceEvent;
import org.onosproject.net.link.LinkEvent;

class PlanProvisionerTest {
    private final TestFabric t = new TestFabric();
    private final FakeMastershipService mastership = new FakeMastershipService();
    private final RecordingPublisher published = new RecordingPublisher();
    private final List<String> cfgRegistered = new ArrayList<>();
    private final PlanProvisioner provisioner = new PlanProvisioner();
    private final RecordingDeviceService switches = new RecordingDeviceService();

    @BeforeEach
    void wire() {
        wire(provisioner, t, mastership, cfgRegistered);
        provisioner.publisher = published;
        provisioner.switchProvisioning = switches;
    }

    /** Wires a provisioner to the fakes of a test fabric; this instance masters every switch. */
    static void wire(PlanProvisioner p, TestFabric fabric, FakeMastershipService mastership,
                     List<String> cfgRegistered) {
        MainComponent main = new MainComponent();
        main.coreService = new FakeCoreService();
        main.configRegistry = fabric.configs;
        main.activate();
        p.mainComponent = main;
        p.deviceService = fabric.devices;
        p.linkService = fabric.links;
        p.configService = fabric.configs;
        p.mastershipService = mastership;
        p.switchProvisioning = new RecordingDeviceService();
        p.componentConfigService = new ComponentConfigAdapter() {
            @Override
            public void registerProperties(Class<?> componentClass) {
                cfgRegistered.add(componentClass.getSimpleName());
            }
        };
        for (String d : new String[] {"device:leaf1", "device:leaf2", "device:spine1", "device:spine2"}) {
            mastership.master(d, FakeMastershipService.LOCAL);
        }
    }

    @AfterEach
    void stop() {
        provisioner.deactivate();
    }

    private void activate() throws Exception {
        provisioner.activate(new ContextWith(REPLAN_DEBOUNCE_MS, 0, PUBLISH_RETRY_MS, 0));
        provisioner.awaitIdle();
    }

    /** Delivers an event the way ONOS's event dispatcher does: isRelevant first. */
    private static <E extends Event<?, ?>> void deliver(List<? extends EventListener<E>> listeners, E event) {
        for (EventListener<E> l : listeners) {
            if (l.isRelevant(event)) {
                l.event(event);
            }
        }
    }

    @Test
    void activationPlansAndPublishesVersionOne() throws Exception {
        activate();

        assertThat(cfgRegistered).containsExactly("PlanProvisioner");
        assertThat(t.devices.listeners).hasSize(1);
        assertThat(t.links.listeners).hasSize(1);
        assertThat(t.configs.listeners).hasSize(1);
        assertThat(mastership.listeners).hasSize(1);
        assertThat(published.versions).containsExactly(1L);
        ObjectNode snap = published.last();
        assertThat(snap.path("fabricId").asText()).isEqualTo("lab");
        assertThat(snap.path("version").asLong()).isEqualTo(1L);
        assertThat(snap.path("fabric").path("nodes")).hasSize(6);
        assertThat(snap.path("linkStates").size()).isEqualTo(6);
        assertThat(provisioner.current().plan().nodeId("spine1")).isEqualTo(17);
        assertThat(provisioner.isPlanOwner()).isTrue();
    }

    @Test
    void linkRemovalReplansAndKeepsEverySurvivingSid() throws Exception {
        activate();
        var before = provisioner.current().plan().nodeIds();

        Link gone = t.links.remove("device:leaf1/1", "device:spine1/1");
        Link back = t.links.remove("device:spine1/1", "device:leaf1/1");
        deliver(t.links.listeners, new LinkEvent(LinkEvent.Type.LINK_REMOVED, gone));
        deliver(t.links.listeners, new LinkEvent(LinkEvent.Type.LINK_REMOVED, back));
        provisioner.awaitIdle();

        assertThat(published.versions).containsExactly(1L, 2L);
        assertThat(provisioner.current().plan().fabric().link("leaf1.eth1-spine1.eth1")).isNull();
        assertThat(provisioner.current().plan().nodeIds()).isEqualTo(before);
        assertThat(published.last().path("linkStates").has("leaf1.eth1-spine1.eth1")).isFalse();
    }

    @Test
    void oneDirectionGoneShowsTheLinkDownInTheSnapshot() throws Exception {
        activate();

        Link gone = t.links.remove("device:spine2/2", "device:leaf2/2");
        deliver(t.links.listeners, new LinkEvent(LinkEvent.Type.LINK_REMOVED, gone));
        provisioner.awaitIdle();

        assertThat(published.versions).containsExactly(1L, 2L);
        assertThat(published.last().path("linkStates").path("leaf2.eth2-spine2.eth2").asText()).isEqualTo("down");
    }

    @Test
    void netcfgChangeReplansWithTheNewNodeId() throws Exception {
        activate();

        t.configs.putDevice("device:spine2", Fixtures.inline("{'role':'spine','name':'spine2','srv6NodeId':300}"));
        deliver(t.configs.listeners, new NetworkConfigEvent(NetworkConfigEvent.Type.CONFIG_UPDATED,
                DeviceId.deviceId("device:spine2"), WeftDeviceConfig.class));
        provisioner.awaitIdle();

        assertThat(published.versions).containsExactly(1L, 2L);
        assertThat(provisioner.current().plan().nodeId("spine2")).isEqualTo(300);
        assertThat(provisioner.current().plan().nodeId("spine1")).isEqualTo(17);
    }

    @Test
    void eventsThatChangeNothingPublishNothing() throws Exception {
        activate();

        deliver(t.devices.listeners, new DeviceEvent(DeviceEvent.Type.PORT_UPDATED,
                t.devices.getDevice(DeviceId.deviceId("device:leaf1"))));
        provisioner.awaitIdle();

        assertThat(published.versions).containsExactly(1L);
    }

    @Test
    void eventsOnOtherDevicesAndOtherConfigsAreNotRelevant() throws Exception {
        activate();
        t.devices.addDevice("device:mgmt1");
        var deviceListener = t.devices.listeners.get(0);
        var configListener = t.configs.listeners.get(0);

        assertThat(deviceListener.isRelevant(new DeviceEvent(DeviceEvent.Type.DEVICE_ADDED,
                t.devices.getDevice(DeviceId.deviceId("device:mgmt1"))))).isFalse();
        assertThat(deviceListener.isRelevant(new DeviceEvent(DeviceEvent.Type.PORT_STATS_UPDATED,
                t.devices.getDevice(DeviceId.deviceId("device:leaf1"))))).isFalse();
        assertThat(configListener.isRelevant(new NetworkConfigEvent(NetworkConfigEvent.Type.CONFIG_ADDED,
                DeviceId.deviceId("device:leaf1"), org.onosproject.net.config.basics.BasicDeviceConfig.class)))
                .isFalse();
    }

    @Test
    void nonOwnerIgnoresEventsAndNeverPlans() throws Exception {
        // device:leaf1 is the lowest Weft device id; another instance masters it
        mastership.master("device:leaf1", FakeMastershipService.OTHER);
        activate();

        Link gone = t.links.remove("device:leaf1/1", "device:spine1/1");
        LinkEvent event = new LinkEvent(LinkEvent.Type.LINK_REMOVED, gone);
        assertThat(t.links.listeners.get(0).isRelevant(event)).isFalse();
        deliver(t.links.listeners, event);
        provisioner.awaitIdle();

        assertThat(provisioner.isPlanOwner()).isFalse();
        assertThat(provisioner.current()).isNull();
        assertThat(published.versions).isEmpty();
    }

    @Test
    void ownershipSkipsDevicesWithoutAMaster() throws Exception {
        mastership.masters.remove(DeviceId.deviceId("device:leaf1"));   // disconnected: nobody masters it
        mastership.master("device:leaf2", FakeMastershipService.LOCAL);

        activate();

        assertThat(provisioner.isPlanOwner()).isTrue();
        assertThat(published.versions).containsExactly(1L);
    }

    @Test
    void invalidFabricKeepsTheLastGoodPlan() throws Exception {
        activate();

        // spine2 takes spine1's explicit uN id: the validator rejects the collision
        t.configs.putDevice("device:spine2", Fixtures.inline("{'role':'spine','name':'spine2','srv6NodeId':17}"));
        deliver(t.configs.listeners, new NetworkConfigEvent(NetworkConfigEvent.Type.CONFIG_UPDATED,
                DeviceId.deviceId("device:spine2"), WeftDeviceConfig.class));
        provisioner.awaitIdle();

        assertThat(published.versions).containsExactly(1L);
        assertThat(provisioner.current().version()).isEqualTo(1L);
        assertThat(provisioner.current().plan().nodeId("spine2")).isEqualTo(18);
    }

    @Test
    void intentIsRenderedForADeviceIdOrANodeId() throws Exception {
        activate();

        ObjectNode byDevice = provisioner.intent("device:leaf1");
        ObjectNode byNode = provisioner.intent("leaf1");

        assertThat(byDevice).isNotNull();
        assertThat(byDevice.path("target").asText()).isEqualTo("leaf1");
        assertThat(byDevice).isEqualTo(byNode);
        assertThat(byDevice.path("replace").size()).isGreaterThan(2);
        assertThat(provisioner.intent("device:nope")).isNull();
        assertThat(provisioner.intent("nic1")).isNull();
    }

    @Test
    void modifiedChangesTheDebounceAndRejectsNegativeValues() throws Exception {
        activate();
        assertThat(provisioner.replanDebounceMs()).isEqualTo(0);

        provisioner.modified(new ContextWith(REPLAN_DEBOUNCE_MS, 50));
        assertThat(provisioner.replanDebounceMs()).isEqualTo(50);

        provisioner.modified(new ContextWith(REPLAN_DEBOUNCE_MS, -1));
        assertThat(provisioner.replanDebounceMs()).isEqualTo(50);
    }

    @Test
    void failedPublishIsRetriedWithTheSameVersion() throws Exception {
        published.failures = 1;

        activate();
        provisioner.awaitIdle(); // the retry was queued behind the first wait

        assertThat(published.attempts).isEqualTo(2);
        assertThat(published.versions).containsExactly(1L);
        assertThat(provisioner.current().version()).isEqualTo(1L);
    }

    @Test
    void newOwnerSeedsFromTheLastPublishedSnapshot() throws Exception {
        // What a previous owner published: leaves had allocated uN ids 0x40/0x41, version 41.
        TestFabric before = new TestFabric();
        before.configs.putDevice("device:leaf1", Fixtures.inline("{'role':'leaf','name':'leaf1','srv6NodeId':64}"));
        before.configs.putDevice("device:leaf2", Fixtures.inline("{'role':'leaf','name':'leaf2','srv6NodeId':65}"));
        BuiltFabric old = before.builder().build();
        published.seed = io.weft.plan.SnapshotJson.toTree(
                io.weft.plan.Planner.plan(old.fabric(), null), old.linkStates(), 41);

        activate(); // this fabric pins no leaf ids: without the seed they would be 1 and 2

        assertThat(published.versions).containsExactly(42L);
        assertThat(provisioner.current().plan().nodeId("leaf1")).isEqualTo(64);
        assertThat(provisioner.current().plan().nodeId("leaf2")).isEqualTo(65);
    }

    @Test
    void everyPlanGoesToTheSwitchesWithGnmiNetcfgAndAnEndpointChangeAloneIsHandedOver() throws Exception {
        t.configs.putDevice("device:leaf1", Fixtures.inline(
                "{'role':'leaf','name':'leaf1','gnmi':{'address':'10.0.0.1','username':'weft','password':'pw'}}"));
        t.configs.putDevice("device:spine1", Fixtures.inline(
                "{'role':'spine','name':'spine1','srv6NodeId':17,'gnmi':{'address':'10.0.0.17','port':50051}}"));
        activate();

        assertThat(switches.plans).containsExactly(provisioner.current().plan());
        assertThat(switches.lastTargets()).containsOnlyKeys("leaf1", "spine1");
        assertThat(switches.lastTargets().get("leaf1").endpoint()).isEqualTo("10.0.0.1:9339");
        assertThat(switches.lastTargets().get("leaf1").username()).isEqualTo("weft");
        assertThat(switches.lastTargets().get("spine1").endpoint()).isEqualTo("10.0.0.17:50051");

        // Only the gNMI endpoint changes: no new plan version, but the switch gets its new endpoint.
        t.configs.putDevice("device:spine1", Fixtures.inline(
                "{'role':'spine','name':'spine1','srv6NodeId':17,'gnmi':{'address':'10.0.0.99'}}"));
        deliver(t.configs.listeners, new NetworkConfigEvent(NetworkConfigEvent.Type.CONFIG_UPDATED,
                DeviceId.deviceId("device:spine1"), WeftDeviceConfig.class));
        provisioner.awaitIdle();

        assertThat(published.versions).containsExactly(1L);
        assertThat(switches.targets).hasSize(2);
        assertThat(switches.lastTargets().get("spine1").endpoint()).isEqualTo("10.0.0.99:9339");

        // An event that changes nothing hands nothing over again.
        deliver(t.devices.listeners, new DeviceEvent(DeviceEvent.Type.PORT_UPDATED,
                t.devices.getDevice(DeviceId.deviceId("device:leaf1"))));
        provisioner.awaitIdle();
        assertThat(switches.targets).hasSize(2);
        assertThat(published.last().has("deviceStates")).as("no switch state known yet").isFalse();
    }

    @Test
    void losingOwnershipReleasesTheSwitches() throws Exception {
        activate();
        assertThat(switches.plans).hasSize(1);

        mastership.master("device:leaf1", FakeMastershipService.OTHER);
        deliver(mastership.listeners, new MastershipEvent(MastershipEvent.Type.MASTER_CHANGED,
                DeviceId.deviceId("device:leaf1"), new MastershipInfo()));
        provisioner.awaitIdle();

        assertThat(switches.releases).isEqualTo(1);
    }

    @Test
    void withoutASeedPlanningStartsAtVersionOne() throws Exception {
        activate();

        assertThat(provisioner.current().plan().nodeId("leaf1")).isEqualTo(1);
        assertThat(published.versions).containsExactly(1L);
    }

    @Test
    void losingOwnershipDropsThePlanSoThatItReseedsLater() throws Exception {
        activate();
        assertThat(provisioner.current()).isNotNull();

        mastership.master("device:leaf1", FakeMastershipService.OTHER);
        deliver(mastership.listeners, new MastershipEvent(MastershipEvent.Type.MASTER_CHANGED,
                DeviceId.deviceId("device:leaf1"), new MastershipInfo()));
        provisioner.awaitIdle();

        assertThat(provisioner.current()).isNull();
        assertThat(provisioner.intent("leaf1")).isNull();

        mastership.master("device:leaf1", FakeMastershipService.LOCAL);
        published.seed = published.last();
        deliver(mastership.listeners, new MastershipEvent(MastershipEvent.Type.MASTER_CHANGED,
                DeviceId.deviceId("device:leaf1"), new MastershipInfo()));
        provisioner.awaitIdle();

        assertThat(published.versions).containsExactly(1L, 2L);
    }

    @Test
    void kafkaBootstrapSwitchesThePublisherAndBadValuesFallBackToTheLog() throws Exception {
        mastership.master("device:leaf1", FakeMastershipService.OTHER); // no plan: nothing to send
        activate();
        assertThat(provisioner.snapshotDestination()).isEqualTo("a recording");

        provisioner.modified(new ContextWith(KAFKA_BOOTSTRAP, "localhost:9"));
        provisioner.awaitIdle();
        assertThat(published.closed).isTrue();
        assertThat(provisioner.snapshotDestination()).isEqualTo("weft.fabric on localhost:9");

        provisioner.modified(new ContextWith(KAFKA_BOOTSTRAP, "not a host list"));
        provisioner.awaitIdle();
        assertThat(provisioner.snapshotDestination()).isEqualTo("the ONOS log");

        provisioner.modified(new ContextWith(KAFKA_BOOTSTRAP, ""));
        provisioner.awaitIdle();
        assertThat(provisioner.snapshotDestination()).isEqualTo("the ONOS log");
    }
}
