package io.weft.controller.onos;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.onosproject.TestApplicationId;
import org.onosproject.core.ApplicationId;
import org.onosproject.net.ConnectPoint;

class WeftAppConfigTest {
    private static final ApplicationId APP = new TestApplicationId(MainComponent.APP_NAME);

    private static WeftAppConfig load(String fixture) {
        return Fixtures.appConfig(APP, Fixtures.json("netcfg/" + fixture));
    }

    @Test
    void readsFabricSettingsAndNics() {
        WeftAppConfig cfg = load("app-full.json");

        assertThat(cfg.problems()).isEmpty();
        assertThat(cfg.fabricId()).isEqualTo("pod-a");
        assertThat(cfg.block()).isEqualTo("fcbb:bb01::/32");
        assertThat(cfg.tenants()).containsExactly("default", "blue");
        assertThat(cfg.defaultCapacityGbps()).isEqualTo(100.0);
        assertThat(cfg.defaultLatencyNs()).isEqualTo(800L);

        List<NicAttachment> nics = cfg.nics();
        assertThat(nics).extracting(NicAttachment::id).containsExactly("nic1", "nic2");
        NicAttachment nic1 = nics.get(0);
        assertThat(nic1.attach()).isEqualTo(ConnectPoint.deviceConnectPoint("device:leaf1/3"));
        assertThat(nic1.port()).isEqualTo("eth0");
        assertThat(nic1.server()).isEqualTo("srv1");
        assertThat(nic1.rail()).isEqualTo(0);
        assertThat(nic1.address()).isEqualTo("2001:db8:0:1::1");
        assertThat(nic1.capacityGbps()).isNull();
        NicAttachment nic2 = nics.get(1);
        assertThat(nic2.port()).isEqualTo("ens1f0");
        assertThat(nic2.capacityGbps()).isEqualTo(200.0);
        assertThat(nic2.server()).isNull();
    }

    @Test
    void emptyConfigMeansDefaults() {
        WeftAppConfig cfg = load("app-empty.json");

        assertThat(cfg.isValid()).isTrue();
        assertThat(cfg.fabricId()).isEqualTo("onos");
        assertThat(cfg.block()).isEqualTo("fcbb:bb00::/32");
        assertThat(cfg.tenants()).containsExactly("default");
        assertThat(cfg.defaultCapacityGbps()).isEqualTo(400.0);
        assertThat(cfg.defaultLatencyNs()).isEqualTo(500L);
        assertThat(cfg.nics()).isEmpty();
    }

    @Test
    void reportsEveryProblemNamingTheField() {
        WeftAppConfig cfg = load("app-invalid.json");

        assertThat(cfg.isValid()).isFalse();
        assertThat(cfg.problems()).containsExactlyInAnyOrder(
                "color: unknown field (allowed: block, defaultCapacityGbps, defaultLatencyNs, fabricId, nics, tenants)",
                "block: must be an IPv6 /32 prefix such as fcbb:bb00::/32",
                "tenants[1]: duplicate tenant default",
                "defaultCapacityGbps: must be a number > 0",
                "nics[0].id: required",
                "nics[0].attach: must be a connect point <deviceId>/<port>, not \"leaf1\"",
                "nics[1].rail: must be an integer in 0..65535",
                "nics[2].id: duplicate NIC id nic2");
    }

    @Test
    void rejectsBlockThatIsNotAnAddress() {
        WeftAppConfig cfg = Fixtures.appConfig(APP, Fixtures.inline("{'block':'fcbb:zz00::/32'}"));

        assertThat(cfg.problems()).containsExactly("block: must be an IPv6 /32 prefix such as fcbb:bb00::/32");
    }

    @Test
    void rejectsEmptyTenantList() {
        WeftAppConfig cfg = Fixtures.appConfig(APP, Fixtures.inline("{'tenants':[]}"));

        assertThat(cfg.problems()).containsExactly("tenants: must be a non-empty array of tenant names");
    }
}
