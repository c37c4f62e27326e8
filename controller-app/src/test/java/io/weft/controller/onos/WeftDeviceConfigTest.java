package io.weft.controller.onos;

import io.weft.fabric.Role;
import org.junit.jupiter.api.Test;
import org.onosproject.net.DeviceId;

import static org.assertj.core.api.Assertions.assertThat;

class WeftDeviceConfigTest {
    private static final DeviceId LEAF1 = DeviceId.deviceId("device:leaf1");

    private static WeftDeviceConfig load(String fixture) {
        return Fixtures.deviceConfig(LEAF1, Fixtures.json("netcfg/" + fixture));
    }

    @Test
    void readsEveryField() {
        WeftDeviceConfig cfg = load("device-leaf.json");

        assertThat(cfg.isValid()).isTrue();
        assertThat(cfg.subject()).isEqualTo(LEAF1);
        assertThat(cfg.role()).isEqualTo(Role.LEAF);
        assertThat(cfg.name()).isEqualTo("leaf1");
        assertThat(cfg.pod()).isEqualTo(0);
        assertThat(cfg.group()).isNull();
        assertThat(cfg.plane()).isEqualTo(1);
        assertThat(cfg.rail()).isEqualTo(2);
        assertThat(cfg.srv6NodeId()).isEqualTo(18);
        assertThat(cfg.address()).isEqualTo("2001:db8:ff::1");
    }

    @Test
    void onlyRoleIsRequired() {
        WeftDeviceConfig cfg = load("device-minimal.json");

        assertThat(cfg.isValid()).isTrue();
        assertThat(cfg.role()).isEqualTo(Role.SPINE);
        assertThat(cfg.name()).isNull();
        assertThat(cfg.srv6NodeId()).isNull();
    }

    @Test
    void rejectsUnknownKeysNamingThem() {
        WeftDeviceConfig cfg = load("device-unknown-key.json");

        assertThat(cfg.isValid()).isFalse();
        assertThat(cfg.problems()).singleElement().asString().startsWith("nodeSid: unknown field");
    }

    @Test
    void rejectsMissingRole() {
        WeftDeviceConfig cfg = load("device-no-role.json");

        assertThat(cfg.isValid()).isFalse();
        assertThat(cfg.problems()).containsExactly("role: required (leaf, spine, superspine or router)");
    }

    @Test
    void rejectsNicRoleBecauseNicsAreNotDevices() {
        WeftDeviceConfig cfg = load("device-bad-role.json");

        assertThat(cfg.isValid()).isFalse();
        assertThat(cfg.role()).isNull();
        assertThat(cfg.problems()).singleElement().asString().startsWith("role: must be leaf, spine");
    }

    @Test
    void reportsEveryOutOfRangeFieldAtOnce() {
        WeftDeviceConfig cfg = load("device-bad-ids.json");

        assertThat(cfg.isValid()).isFalse();
        assertThat(cfg.problems()).containsExactlyInAnyOrder(
                "name: must match ^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$",
                "pod: must be an integer in 0..65535",
                "srv6NodeId: must be an integer in 1..57343",
                "address: must be an IPv6 address without prefix length");
    }

    @Test
    void srv6NodeIdZeroIsInvalidBecauseUsidZeroIsNotAnId() {
        WeftDeviceConfig cfg = Fixtures.deviceConfig(LEAF1, Fixtures.inline("{'role':'leaf','srv6NodeId':0}"));

        assertThat(cfg.problems()).containsExactly("srv6NodeId: must be an integer in 1..57343");
    }

    @Test
    void rejectsNonIntegralIndex() {
        WeftDeviceConfig cfg = Fixtures.deviceConfig(LEAF1, Fixtures.inline("{'role':'leaf','rail':1.5}"));

        assertThat(cfg.problems()).containsExactly("rail: must be an integer in 0..65535");
    }

    @Test
    void srv6NodeIdStopsBelowTheFunctionRange() {
        WeftDeviceConfig highest = Fixtures.deviceConfig(LEAF1, Fixtures.inline("{'role':'leaf','srv6NodeId':57343}"));
        WeftDeviceConfig function = Fixtures.deviceConfig(LEAF1, Fixtures.inline("{'role':'leaf','srv6NodeId':57344}"));

        assertThat(highest.isValid()).isTrue();
        assertThat(function.problems()).containsExactly("srv6NodeId: must be an integer in 1..57343");
    }
}
