package io.weft.lab.fabric;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.weft.fabric.Fabric;
import io.weft.fabric.Node;
import io.weft.fabric.Role;

/**
 * Slim Fly (Besta, Hoefler, SC14) on the McKay-Miller-Širáň graph: 2q² routers (s, x, y) with
 * s ∈ {0, 1} and x, y ∈ GF(q), q a prime power with q = 4w + δ, δ ∈ {−1, 0, 1}. With ξ a primitive
 * element of GF(q) and generator sets X, X′ (below):
 * (0,x,y) ~ (0,x,y′) iff y − y′ ∈ X; (1,m,c) ~ (1,m,c′) iff c − c′ ∈ X′; (0,x,y) ~ (1,m,c) iff
 * y = m·x + c. The graph is (3q − δ)/2-regular with diameter 2; each router gets ⌈radix/2⌉ NICs.
 * <ul>
 *   <li>δ = 1: X = {1, ξ², …, ξ^(q−3)}, X′ = {ξ, ξ³, …, ξ^(q−2)}</li>
 *   <li>δ = −1: X = {1, ξ², …, ξ^(2w−2)} ∪ {ξ^(2w−1), ξ^(2w+1), …, ξ^(4w−3)},
 *       X′ = {ξ, ξ³, …, ξ^(2w−1)} ∪ {ξ^(2w), ξ^(2w+2), …, ξ^(4w−2)}</li>
 *   <li>δ = 0 (q a power of 2): X = {1, ξ², …, ξ^(q−2)}, X′ = {ξ, ξ³, …, ξ^(q−1)}</li>
 * </ul>
 * GF(p^m) is built by {@link GaloisField}, so prime powers such as 4, 8, 9 work as well as primes.
 *
 * <p>Ids (coordinates 0-based as in the construction): routers {@code r0-3-4} = (0, 3, 4); the group
 * field is s·q + x (the 2q groups of q routers a Slim Fly is usually cabled by); NICs
 * {@code r0-3-4-nic1}; links {@code r0-3-4-r1-2-0}, NIC links {@code r0-3-4-nic1-up}.
 */
public final class SlimFlyGenerator {
    public static final String FAMILY = "slimfly";

    /** Parameters; q must be a prime power in 3..64. */
    public record Params(String id, int q, double nicGbps, double linkGbps, long nicLatencyNs, long linkLatencyNs) {
        public Params {
            Check.between("q", q, 3, 64);
            // Rejects q that is not a prime power, naming q. (The only prime power with q mod 4 = 2,
            // where no δ in {-1, 0, 1} exists, is 2, already below the range.)
            GaloisField.of(q);
            id = Check.id("id", id == null ? "sf-q" + q : id);
            Check.positive("nicGbps", nicGbps);
            Check.positive("linkGbps", linkGbps);
            Check.notNegative("nicLatencyNs", nicLatencyNs);
            Check.notNegative("linkLatencyNs", linkLatencyNs);
            int radix = (3 * q - (q % 4 == 1 ? 1 : q % 4 == 3 ? -1 : 0)) / 2;
            Check.size(FAMILY, 2L * q * q * (1 + (radix + 1) / 2));
        }

        public static Params of(int q) {
            return new Params(null, q, 400, 400, 100, 500);
        }

        /** δ of q = 4w + δ. */
        public int delta() {
            int r = q % 4;
            return r == 1 ? 1 : r == 3 ? -1 : 0;
        }

        /** Router-to-router ports per router, (3q − δ)/2. */
        public int radix() {
            return (3 * q - delta()) / 2;
        }

        /** NICs per router, ⌈radix/2⌉. */
        public int nicsPerRouter() {
            return (radix() + 1) / 2;
        }
    }

    private SlimFlyGenerator() {
    }

    public static Fabric generate(Params p) {
        int q = p.q();
        GaloisField gf = GaloisField.of(q);
        boolean[][] sets = generatorSets(gf, p.delta());
        boolean[] x0 = sets[0];
        boolean[] x1 = sets[1];
        Map<String, Object> rec = new LinkedHashMap<>();
        rec.put("q", q);
        rec.put("nicGbps", GeneratedFabricBuilder.number(p.nicGbps()));
        rec.put("linkGbps", GeneratedFabricBuilder.number(p.linkGbps()));
        rec.put("nicLatencyNs", p.nicLatencyNs());
        rec.put("linkLatencyNs", p.linkLatencyNs());
        GeneratedFabricBuilder b = new GeneratedFabricBuilder(p.id(),
                "slim fly q=" + q + " (MMS, " + 2 * q * q + " routers, radix "
                + p.radix() + ")", FAMILY, rec);
        for (int s = 0; s < 2; s++) {
            for (int x = 0; x < q; x++) {
                for (int y = 0; y < q; y++) {
                    b.add(Node.builder(router(s, x, y), Role.ROUTER).group(s * q + x).build());
                }
            }
        }
        for (int s = 0; s < 2; s++) {
            boolean[] set = s == 0 ? x0 : x1;
            for (int x = 0; x < q; x++) {
                for (int y = 0; y < q; y++) {
                    for (int y2 = y + 1; y2 < q; y2++) {
                        if (set[gf.sub(y, y2)]) {
                            link(b, p, router(s, x, y), router(s, x, y2));
                        }
                    }
                }
            }
        }
        for (int x = 0; x < q; x++) {
            for (int y = 0; y < q; y++) {
                for (int m = 0; m < q; m++) {
                    int c = gf.sub(y, gf.mul(m, x));
                    link(b, p, router(0, x, y), router(1, m, c));
                }
            }
        }
        for (int s = 0; s < 2; s++) {
            for (int x = 0; x < q; x++) {
                for (int y = 0; y < q; y++) {
                    for (int n = 1; n <= p.nicsPerRouter(); n++) {
                        String nic = router(s, x, y) + "-nic" + n;
                        b.add(Node.builder(nic, Role.NIC).group(s * q + x).build());
                        b.link(nic + "-up", nic, router(s, x, y), p.nicGbps(), p.nicLatencyNs());
                    }
                }
            }
        }
        return b.build();
    }

    private static void link(GeneratedFabricBuilder b, Params p, String from, String to) {
        b.link(from + "-" + to, from, to, p.linkGbps(), p.linkLatencyNs());
    }

    /** {X, X′} as membership arrays over GF(q); both must be closed under negation. */
    static boolean[][] generatorSets(GaloisField gf, int delta) {
        int q = gf.size();
        List<Integer> e0 = new ArrayList<>();
        List<Integer> e1 = new ArrayList<>();
        if (delta == 1) {
            evens(e0, 0, q - 3);
            evens(e1, 1, q - 2);
        } else if (delta == -1) {
            int w = (q + 1) / 4;
            evens(e0, 0, 2 * w - 2);
            evens(e0, 2 * w - 1, 4 * w - 3);
            evens(e1, 1, 2 * w - 1);
            evens(e1, 2 * w, 4 * w - 2);
        } else {
            evens(e0, 0, q - 2);
            evens(e1, 1, q - 1);
        }
        boolean[][] sets = new boolean[2][q];
        for (int k = 0; k < 2; k++) {
            for (int e : k == 0 ? e0 : e1) {
                sets[k][gf.power(e)] = true;
            }
            for (int v = 0; v < q; v++) {
                if (sets[k][v] && !sets[k][gf.neg(v)]) {
                    throw new IllegalStateException("Slim Fly generator set " + (k == 0 ? "X" : "X'")
                            + " for q=" + q + " is not closed under negation");
                }
            }
        }
        return sets;
    }

    /** Adds from, from+2, ... up to and including to. */
    private static void evens(List<Integer> into, int from, int to) {
        for (int e = from; e <= to; e += 2) {
            into.add(e);
        }
    }

    private static String router(int s, int x, int y) {
        return "r" + s + "-" + x + "-" + y;
    }
}
