package io.weft.southbound.gnmi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.gnmi.proto.Path;
import org.junit.jupiter.api.Test;

class GnmiPathsTest {
    @Test
    void elementsAndKeysAsTheContractSays() {
        Path p = GnmiPaths.parse("openconfig", "/interfaces/interface[name=Ethernet0]");
        assertThat(p.getOrigin()).isEqualTo("openconfig");
        assertThat(p.getElemCount()).isEqualTo(2);
        assertThat(p.getElem(0).getName()).isEqualTo("interfaces");
        assertThat(p.getElem(0).getKeyMap()).isEmpty();
        assertThat(p.getElem(1).getName()).isEqualTo("interface");
        assertThat(p.getElem(1).getKeyMap()).containsExactly(java.util.Map.entry("name", "Ethernet0"));
    }

    @Test
    void keyValuesMayHoldSlashesAndEscapedBrackets() {
        Path p = GnmiPaths.parse("openconfig",
                "/network-instances/network-instance[name=DEFAULT]/static[prefix=fcbb:bb00:1::/48][x=a\\]b]/config");
        assertThat(p.getElemCount()).isEqualTo(4);
        assertThat(p.getElem(2).getKeyMap()).containsEntry("prefix", "fcbb:bb00:1::/48").containsEntry("x", "a]b");
        assertThat(GnmiPaths.format(p)).isEqualTo(
                "openconfig:/network-instances/network-instance[name=DEFAULT]/static[prefix=fcbb:bb00:1::/"
                        + "48][x=a\\]b]/config");
        assertThat(GnmiPaths.parse("openconfig", GnmiPaths.format(p).substring("openconfig:".length()))).isEqualTo(p);
    }

    @Test
    void canonicalFormSortsKeysAndJoinsPrefix() {
        Path a = GnmiPaths.parse("", "/a[z=1][b=2]");
        assertThat(GnmiPaths.format(a)).isEqualTo("/a[b=2][z=1]");
        Path prefix = GnmiPaths.parse("sonic-db", "/CONFIG_DB");
        assertThat(GnmiPaths.format(prefix, GnmiPaths.parse("", "/localhost/SRV6_MY_SIDS")))
                .isEqualTo("sonic-db:/CONFIG_DB/localhost/SRV6_MY_SIDS");
    }

    @Test
    void badPathsNameThePath() {
        assertThatThrownBy(() -> GnmiPaths.parse("o", "interfaces")).hasMessageContaining("'interfaces'");
        assertThatThrownBy(() -> GnmiPaths.parse("o", "/a[name=x")).hasMessageContaining("unbalanced")
                .hasMessageContaining("/a[name=x");
        assertThatThrownBy(() -> GnmiPaths.parse("o", "/a//b")).hasMessageContaining("empty element");
        assertThatThrownBy(() -> GnmiPaths.parse("o", "/a[name]")).hasMessageContaining("without '='");
    }
}
