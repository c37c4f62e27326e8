package io.weft.controller.onos;

import static org.assertj.core.api.Assertions.assertThat;

import io.weft.fabric.Role;
import io.weft.southbound.gnmi.GnmiTarget;
import org.junit.jupiter.api.Test;
import org.onosproject.net.DeviceId;

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
    void readsTheGnmiEndpointIntoTheSouthboundsTarget() {
        WeftDeviceConfig cfg = load("device-gnmi.json");

        assertThat(cfg.problems()).isEmpty();
        assertThat(cfg.hasGnmi()).isTrue();
        GnmiTarget g = cfg.gnmiTarget("leaf1");
        assertThat(g.switchId()).isEqualTo("leaf1");
        assertThat(g.endpoint()).isEqualTo("leaf1.lab:57400");
        assertThat(g.tls()).isTrue();
        assertThat(g.caFile()).isEqualTo("/etc/weft/ca.pem");
        assertThat(g.certFile()).isEqualTo("/etc/weft/onos.pem");
        assertThat(g.keyFile()).isEqualTo("/etc/weft/onos.key");
        assertThat(g.username()).isEqualTo("weft");
        assertThat(g.password()).isEqualTo("secret");
        assertThat(g.toString()).doesNotContain("secret");
    }

    @Test
    void gnmiDefaultsToPlaintextOnPort9339AndIsOptional() {
        WeftDeviceConfig cfg = Fixtures.deviceConfig(LEAF1,
                Fixtures.inline("{'role':'leaf','gnmi':{'address':'fd00::1'}}"));

        assertThat(cfg.problems()).isEmpty();
        assertThat(cfg.gnmiTarget("leaf1")).isEqualTo(GnmiTarget.plaintext("leaf1", "fd00::1", 9339));
        assertThat(cfg.gnmiTarget("leaf1").endpoint()).isEqualTo("[fd00::1]:9339");
        assertThat(load("device-minimal.json").hasGnmi()).isFalse();
        assertThat(load("device-minimal.json").gnmiTarget("spine1")).isNull();
    }

    @Test
    void reportsEveryBadGnmiFieldByName() {
        WeftDeviceConfig cfg = load("device-gnmi-bad.json");

        assertThat(cfg.isValid()).isFalse();
        assertThat(cfg.problems()).containsExactlyInAnyOrder(
                "gnmi.insecure: unknown field (allowed: address, caFile, certFile, keyFile, password, port, tls, "
                        + "username)",
                "gnmi.address: required (host name or IP address of the switch's gNMI server)",
                "gnmi.port: must be an integer in 1..65535",
                "gnmi.tls: must be true or false",
                "gnmi.certFile/keyFile: give both or neither",
                "gnmi.tls: certificate files given but tls is off",
                "gnmi.password: given without username");
    }

    @Test
    void certificateFilesNeedTls() {
        WeftDeviceConfig cfg = load("device-gnmi-files-without-tls.json");

        assertThat(cfg.problems()).containsExactly("gnmi.tls: certificate files given but tls is off");
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
