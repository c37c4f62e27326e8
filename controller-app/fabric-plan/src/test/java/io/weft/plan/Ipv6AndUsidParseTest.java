package io.weft.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

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

    /** RFC 5952 section 4 as properties of the text, on seeded random addresses rich in zero groups. */
    @Test
    void formatWritesRfc5952CanonicalText() {
        Random rnd = new Random(5952);
        for (int round = 0; round < 20_000; round++) {
            int[] g = new int[8];
            for (int i = 0; i < 8; i++) {
                g[i] = rnd.nextInt(5) < 2 ? 0 : rnd.nextInt(1 << (4 * (1 + rnd.nextInt(4))));
            }
            String text = Ipv6.format(g);
            assertThat(Ipv6.parse(text)).as(text).containsExactly(g);
            assertThat(text).as(Arrays.toString(g)).matches("[0-9a-f:]+").doesNotContain(":::");
            String[] halves = text.split("::", -1);
            assertThat(halves.length).as(text).isLessThanOrEqualTo(2);
            List<String> before = groups(halves[0]);
            List<String> after = halves.length == 2 ? groups(halves[1]) : List.of();
            for (String group : concat(before, after)) {
                assertThat(group).as(text).matches("0|[1-9a-f][0-9a-f]{0,3}");
            }
            if (halves.length == 2) {
                int elided = 8 - before.size() - after.size();
                assertThat(elided).as(text).isGreaterThanOrEqualTo(2);
                assertThat(longestZeroRun(before)).as(text).isLessThan(elided);
                assertThat(longestZeroRun(after)).as(text).isLessThanOrEqualTo(elided);
            } else {
                assertThat(longestZeroRun(before)).as(text).isLessThan(2);
            }
        }
    }

    private static List<String> groups(String half) {
        return half.isEmpty() ? List.of() : List.of(half.split(":", -1));
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> out = new ArrayList<>(a);
        out.addAll(b);
        return out;
    }

    private static int longestZeroRun(List<String> groups) {
        int best = 0;
        int run = 0;
        for (String group : groups) {
            run = group.equals("0") ? run + 1 : 0;
            best = Math.max(best, run);
        }
        return best;
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
