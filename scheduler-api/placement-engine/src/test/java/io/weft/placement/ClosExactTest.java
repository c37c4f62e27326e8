package io.weft.placement;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

import io.weft.fabric.Fabric;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The exact-assignment guarantee: full-bisection Clos, equal line-rate flows, one per NIC each way. */
class ClosExactTest {

    static Fabric fabric(String kind, int a, int b, int c) {
        return kind.equals("ls") ? Fixtures.leafSpine(a, b, c) : Fixtures.fatTree(a);
    }

    /** A random (partial) permutation: each NIC sends at most one flow and receives at most one. */
    static List<JobSpec.FlowSpec> permutation(List<String> nics, Random rnd, double fill) {
        List<String> dst = new ArrayList<>(nics);
        Collections.shuffle(dst, rnd);
        List<JobSpec.FlowSpec> out = new ArrayList<>();
        for (int i = 0; i < nics.size(); i++) {
            if (!nics.get(i).equals(dst.get(i)) && rnd.nextDouble() < fill) {
                out.add(new JobSpec.FlowSpec(nics.get(i), dst.get(i), 400));
            }
        }
        return out;
    }

    @ParameterizedTest(name = "{0} {1}x{2}x{3}")
    @CsvSource({"ls,4,4,4", "ls,8,8,8", "ls,16,4,4", "ft,4,0,0", "ft,6,0,0", "ft,8,0,0"})
    void everyRandomPermutationGetsMaxLoadOne(String kind, int a, int b, int c) throws Exception {
        Fabric f = fabric(kind, a, b, c);
        List<String> nics = Fixtures.nics(f);
        Random rnd = new Random(42 + a * 31 + b);
        for (int trial = 0; trial < 40; trial++) {
            PlacementEngine e = Fixtures.engine(f);
            List<JobSpec.FlowSpec> flows = permutation(nics, rnd, trial % 2 == 0 ? 1.0 : 0.7);
            Job job = Patterns.expand(new JobSpec("perm" + trial, null, "explicit", null, 400, 1, 0, null, flows),
                    e.index(), 1 << 20);
            PlacementResult r = e.add(job);
            assertThat(r.unplaced()).isEmpty();
            assertThat(r.quality().maxLoad()).as("trial %d", trial).isEqualTo(1.0);
        }
    }

    @ParameterizedTest(name = "{0} {1}x{2}x{3}")
    @CsvSource({"ls,8,4,4", "ls,6,3,3", "ft,4,0,0", "ft,8,0,0", "ft,12,0,0"})
    void theAssignmentItselfIsLinkDisjointContiguousAndValleyFree(String kind, int a, int b, int c) {
        Fabric f = fabric(kind, a, b, c);
        DenseFabric ix = DenseFabric.of(f);
        List<String> nics = Fixtures.nics(f);
        Random rnd = new Random(a * 7 + b);
        for (int trial = 0; trial < 20; trial++) {
            List<JobSpec.FlowSpec> flows = permutation(nics, rnd, 1.0);
            int[] src = flows.stream().mapToInt(x -> ix.node(x.src())).toArray();
            int[] dst = flows.stream().mapToInt(x -> ix.node(x.dst())).toArray();
            double[] demand = flows.stream().mapToDouble(JobSpec.FlowSpec::demandGbps).toArray();
            int[][] paths = ClosExact.assign(ix, src, dst, demand);
            assertThat(paths).isNotNull();
            int[] uses = new int[ix.arcCount()];
            for (int i = 0; i < paths.length; i++) {
                int at = src[i];
                for (int arc : paths[i]) {
                    assertThat(ix.from(arc)).isEqualTo(at);
                    at = ix.to(arc);
                    uses[arc]++;
                }
                assertThat(at).isEqualTo(dst[i]);
                assertThat(paths[i].length).isIn(2, 4, 6);
            }
            assertThat(java.util.Arrays.stream(uses).max().getAsInt()).isEqualTo(1);
        }
    }

    @Test
    void colouringAloneIsProperOnRandomMultigraphs() {
        Random rnd = new Random(7);
        for (int trial = 0; trial < 200; trial++) {
            int n = 1 + rnd.nextInt(12);
            int colours = 1 + rnd.nextInt(6);
            // Random regular-ish multigraph: up to `colours` edges per vertex on each side.
            List<int[]> edges = new ArrayList<>();
            int[] dl = new int[n];
            int[] dr = new int[n];
            for (int k = 0; k < n * colours * 2; k++) {
                int u = rnd.nextInt(n);
                int v = rnd.nextInt(n);
                if (dl[u] < colours && dr[v] < colours) {
                    dl[u]++;
                    dr[v]++;
                    edges.add(new int[] {u, v});
                }
            }
            int[] l = edges.stream().mapToInt(x -> x[0]).toArray();
            int[] r = edges.stream().mapToInt(x -> x[1]).toArray();
            int[] col = BipartiteEdgeColouring.colour(n, n, l, r, colours);
            assertThat(col).isNotNull();
            boolean[][] usedL = new boolean[n][colours];
            boolean[][] usedR = new boolean[n][colours];
            for (int e = 0; e < col.length; e++) {
                assertThat(usedL[l[e]][col[e]]).as("left clash").isFalse();
                assertThat(usedR[r[e]][col[e]]).as("right clash").isFalse();
                usedL[l[e]][col[e]] = true;
                usedR[r[e]][col[e]] = true;
            }
        }
    }

    @ParameterizedTest(name = "2:1 leaf-spine {0}x{1}x{2}")
    @CsvSource({"8,4,8", "6,2,4", "16,8,16"})
    void oversubscribedClosReachesTheBusiestLeafBound(int leaves, int spines, int nicsPerLeaf) throws Exception {
        Fabric f = Fixtures.leafSpine(leaves, spines, nicsPerLeaf);
        List<String> nics = Fixtures.nics(f);
        Random rnd = new Random(leaves * 100 + spines);
        for (int trial = 0; trial < 20; trial++) {
            PlacementEngine e = Fixtures.engine(f);
            List<JobSpec.FlowSpec> flows = permutation(nics, rnd, 1.0);
            // Busiest leaf: ceil(inter-leaf flows out of (or into) it / uplinks) flows on some uplink.
            java.util.Map<String, Integer> out = new java.util.HashMap<>();
            java.util.Map<String, Integer> in = new java.util.HashMap<>();
            for (JobSpec.FlowSpec x : flows) {
                String a = x.src().substring(0, x.src().indexOf("-nic"));
                String b = x.dst().substring(0, x.dst().indexOf("-nic"));
                if (!a.equals(b)) {
                    out.merge(a, 1, Integer::sum);
                    in.merge(b, 1, Integer::sum);
                }
            }
            int busiest = Math.max(out.values().stream().mapToInt(Integer::intValue).max().orElse(0),
                    in.values().stream().mapToInt(Integer::intValue).max().orElse(0));
            double bound = Math.max(1, Math.ceil(busiest / (double) spines));
            PlacementResult r = e.add(Patterns.expand(new JobSpec("p" + trial, null, "explicit", null, 400, 1, 0, null,
                    flows), e.index(), 1 << 20));
            assertThat(r.quality().maxLoad()).as("trial %d", trial).isEqualTo(bound);
        }
    }
}
