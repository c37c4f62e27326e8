package io.weft.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import io.weft.plan.srv6.Usid;
import org.junit.jupiter.api.Test;

/** Parsing paths the shared vectors do not cover: bad text, prefixes, carriers that are not ours. */
class Ipv6AndUsidParseTest {

    @Test
    void canonicalFormAndPrefixContainment() {
        assertThat(Ipv6.canonical("FD00:0EF7:0000:0000:0000:0000:0000:0001")).isEqualTo("fd00:ef7::1");
        assertThat(Ipv6.canonical("2001:db8:0:1:1:1:1:1")).isEqualTo("2001:db8:0:1:1:1:1:1");
        assertThat(Ipv6.canonical("1:0:0:2:0:0:0:3")).isEqualTo("1:0:0:2::3");
        assertThat(Ipv6.canonical("::")).isEqualTo("::");
        assertThat(Ipv6.contains("fd00:ef7:12::/64", "fd00:ef7:12::9")).isTrue();
        assertThat(Ipv6.contains("fd00:ef7:12::/64", "fd00:ef7:13::9")).isFalse();
        assertThat(Ipv6.contains("fd00:ef7:12::/47", "fd00:ef7:13::9")).isTrue();
    }

    @Test
    void badAddressesAreRejectedNamingTheText() {
        assertThatThrownBy(() -> Ipv6.parse("1::2::3")).hasMessage("\"1::2::3\": more than one \"::\"");
        assertThatThrownBy(() -> Ipv6.parse("1:2:3")).hasMessageContaining("wrong number of groups");
        assertThatThrownBy(() -> Ipv6.parse("12345::")).hasMessageContaining("bad group \"12345\"");
        assertThatThrownBy(() -> Ipv6.parse("fcbb:zz::")).hasMessageContaining("bad group \"zz\"");
        assertThatThrownBy(() -> Ipv6.prefixLength("fd00::/129")).hasMessageContaining("0..128");
    }

    @Test
    void carriersOutsideTheBlockOrWithGapsAreNotUsidLists() {
        assertThatThrownBy(() -> Usid.parse("fcbb:bb00::/32", "fcbb:bb01:1::"))
                .isInstanceOfSatisfying(EncodingException.class,
                        e -> assertThat(e.code()).isEqualTo("carrier-outside-block"))
                .hasMessage("carrier \"fcbb:bb01:1::\" is not inside block fcbb:bb00::/32");
        assertThatThrownBy(() -> Usid.parse("fcbb:bb00::/32", "fcbb:bb00:1:0:2::"))
                .isInstanceOfSatisfying(EncodingException.class, e -> assertThat(e.code()).isEqualTo("carrier-gap"));
        assertThatThrownBy(() -> Usid.parse("fcbb:bb00::/32", List.of("fcbb:bb00:1::", "fcbb:bb00:2::")))
                .isInstanceOfSatisfying(EncodingException.class, e -> assertThat(e.code()).isEqualTo("carrier-short"));
        assertThatThrownBy(() -> Usid.block("fcbb:bb00:1::/32"))
                .isInstanceOfSatisfying(EncodingException.class, e -> assertThat(e.code()).isEqualTo("block-not-32"));
    }
}
