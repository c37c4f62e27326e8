package io.weft.lab.fabric;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.Set;

import io.weft.fabric.Fabric;
import io.weft.fabric.Link;
import io.weft.fabric.Node;
import io.weft.fabric.Role;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class DragonflyGeneratorTest {

    @ParameterizedTest
    @CsvSource({"2,4,2", "1,2,1", "1,3,2", "2,2,3", "3,6,3"})
    void maximalDragonflyFollowsTheFormulas(int p, int a, int h) {
        int g = a * h + 1;
        Fabric f = DragonflyGenerator.generate(DragonflyGenerator.Params.of(p, a, h));
        FabricStats s = FabricStats.of(f);
        assertThat(io.weft.fabric.FabricValidator.validate(f)).isEmpty();
        assertThat(s.count(Role.ROUTER)).isEqualTo(g * a);
        assertThat(s.count(Role.NIC)).isEqualTo(g * a * p);
        assertThat(f.links()).hasSize(g * a * (a - 1) / 2 + g * (g - 1) / 2 + g * a * p);
        // every router: a-1 local + h global + p NIC ports
        assertThat(s.minRadix()).isEqualTo(a - 1 + h + p);
        assertThat(s.maxRadix()).isEqualTo(a - 1 + h + p);
        assertThat(s.diameter()).isEqualTo(a == 1 ? 1 : 3);
        assertEveryPairOfGroupsJoinedOnce(f, g);
    }

    @Test
    void fewerGroupsStillJoinEveryPairOnceAndFollowTheChannelRule() {
        Fabric f = DragonflyGenerator.generate(new DragonflyGenerator.Params(null, 1, 4, 2, 5, 400, 400, 400, 1, 1, 1));
        assertThat(f.id()).isEqualTo("df-1-4-2-g5");
        assertEveryPairOfGroupsJoinedOnce(f, 5);
        // Group 1 (index 0), router 1 (r=0), port k=1 -> channel 1 -> group (0+1+1) mod 5 = 2 (index), g3.
        // From g3's side the channel is (0-2-1) mod 5 = 2 -> router 2/h = 1 -> g3-r2.
        assertThat(f.link("g1-r1-g3-r2")).isNotNull();
        // Channels >= g-1 = 4 are unwired: routers 3 and 4 (channels 4..7) have no global link.
        assertThat(f.linksOf("g1-r3")).noneMatch(l -> !l.otherEnd("g1-r3").node().startsWith("g1-"));
        assertThat(FabricStats.switchDiameter(f)).isLessThanOrEqualTo(3);
    }

    @ParameterizedTest
    @CsvSource({"1,4,2,9", "1,4,2,6", "1,3,3,10", "1,2,2,3"})
    void everyRouterReachesTheGroupsItsChannelsName(int p, int a, int h, int g) {
        Fabric f = DragonflyGenerator.generate(new DragonflyGenerator.Params(null, p, a, h, g, 1, 1, 1, 1, 1, 1));
        for (Node r : f.nodesWithRole(Role.ROUTER)) {
            int i = r.group();
            int router = Integer.parseInt(r.id().substring(r.id().indexOf("-r") + 2)) - 1;
            java.util.List<Integer> expected = new java.util.ArrayList<>();
            for (int k = 0; k < h; k++) {
                int c = router * h + k;
                if (c < g - 1) {
                    expected.add((i + c + 1) % g);
                }
            }
            java.util.List<Integer> actual = new java.util.ArrayList<>();
            for (Link l : f.linksOf(r.id())) {
                Node other = f.node(l.otherEnd(r.id()).node());
                if (other.role() == Role.ROUTER && other.group() != i) {
                    actual.add(other.group());
                }
            }
            // Seen from each end: a link is on channel c of both routers it joins.
            assertThat(actual).as("far groups of %s", r.id()).containsExactlyInAnyOrderElementsOf(expected);
        }
    }

    private static void assertEveryPairOfGroupsJoinedOnce(Fabric f, int g) {
        Set<String> pairs = new HashSet<>();
        int global = 0;
        for (Link l : f.links()) {
            Node a = f.node(l.a().node());
            Node b = f.node(l.b().node());
            if (a.role() == Role.ROUTER && b.role() == Role.ROUTER && !a.group().equals(b.group())) {
                global++;
                assertThat(pairs.add(Math.min(a.group(), b.group()) + "-" + Math.max(a.group(), b.group())))
                        .as("groups of %s joined once", l.id()).isTrue();
            }
        }
        assertThat(global).isEqualTo(g * (g - 1) / 2);
    }

    @Test
    void rejectsTooManyGroups() {
        assertThatThrownBy(() -> new DragonflyGenerator.Params(null, 1, 2, 2, 6, 1, 1, 1, 1, 1, 1))
                .hasMessage("g: must be in 2..5 (got 6)");
        assertThatThrownBy(() -> DragonflyGenerator.Params.of(1, 0, 2)).hasMessage("a: must be >= 1 (got 0)");
    }
}
