package io.weft.lab.fabric;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weft.fabric.Fabric;
import io.weft.fabric.Node;
import io.weft.fabric.Role;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SlimFlyGeneratorTest {

    @ParameterizedTest
    @ValueSource(ints = {3, 4, 5, 7, 8, 9, 11, 13})
    void mmsGraphFollowsTheFormulas(int q) {
        var p = SlimFlyGenerator.Params.of(q);
        int delta = q % 4 == 1 ? 1 : q % 4 == 3 ? -1 : 0;
        int radix = (3 * q - delta) / 2;
        int nics = (radix + 1) / 2;
        Fabric f = SlimFlyGenerator.generate(p);
        FabricStats s = FabricStats.of(f);
        assertThat(io.weft.fabric.FabricValidator.validate(f)).isEmpty();
        assertThat(s.count(Role.ROUTER)).isEqualTo(2 * q * q);
        assertThat(s.count(Role.NIC)).isEqualTo(2 * q * q * nics);
        assertThat(f.links()).hasSize(q * q * radix + 2 * q * q * nics);
        for (Node r : f.nodesWithRole(Role.ROUTER)) {
            long switchPorts = f.linksOf(r.id()).stream()
                    .filter(l -> f.node(l.otherEnd(r.id()).node()).role() == Role.ROUTER).count();
            assertThat(switchPorts).as("router-to-router ports of %s", r.id()).isEqualTo(radix);
        }
        assertThat(s.maxRadix()).isEqualTo(radix + nics);
        assertThat(s.diameter()).isEqualTo(2);
    }

    @Test
    void rejectsQThatIsNotAPrimePower() {
        assertThatThrownBy(() -> SlimFlyGenerator.Params.of(12)).hasMessageStartingWith("q: must be a prime power");
        assertThatThrownBy(() -> SlimFlyGenerator.Params.of(6))
                .hasMessage("q: must be a prime power (got 6 = 2^1 x 3)");
        assertThatThrownBy(() -> SlimFlyGenerator.Params.of(2)).hasMessage("q: must be in 3..64 (got 2)");
    }

    @Test
    void galoisFieldsAreFields() {
        for (int q : new int[] {2, 3, 4, 5, 8, 9, 16, 25, 27}) {
            GaloisField gf = GaloisField.of(q);
            int xi = gf.primitive();
            java.util.Set<Integer> powers = new java.util.HashSet<>();
            for (int e = 0; e < q - 1; e++) {
                powers.add(gf.power(e));
            }
            assertThat(powers).as("powers of ξ in GF(%d)", q).hasSize(q - 1).doesNotContain(0);
            for (int a = 0; a < q; a++) {
                assertThat(gf.add(a, gf.neg(a))).isZero();
                assertThat(gf.mul(a, 1)).isEqualTo(a);
                for (int b2 = 0; b2 < q; b2++) {
                    // distributivity a·(b + ξ) = a·b + a·ξ
                    assertThat(gf.mul(a, gf.add(b2, xi))).isEqualTo(gf.add(gf.mul(a, b2), gf.mul(a, xi)));
                }
            }
        }
    }
}
