package io.weft.placement.bench;

import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.zip.CRC32;

import io.weft.fabric.Arc;
import io.weft.fabric.Fabric;
import io.weft.placement.DenseFabric;
import io.weft.placement.Job;
import io.weft.placement.Patterns;
import io.weft.placement.PlacedFlow;
import io.weft.placement.PlacementConfig;
import io.weft.placement.PlacementEngine;
import io.weft.placement.PlacementResult;
import io.weft.placement.PlanFlowEncoder;
import io.weft.plan.Planner;

/**
 * What a speed change must not change: for every non-big row of {@link PlacementBench}'s suite, the
 * engine adds the job four times (released between, as the suite's --quick runs do, one encoder per
 * fabric shared by its rows) and prints the last result's max load, collisions, hops and counts, a
 * CRC of every placed flow's id, link path, carriers, uSIDs and EV, and a CRC over all four results
 * (moved and unplaced lists included). Run it on two builds and diff the output:
 * {@code java -cp "target/test-classes:target/<engine jar>:target/bench-lib/*"
 * io.weft.placement.bench.SuiteIdentity}.
 */
public final class SuiteIdentity {

    public static void main(String[] args) throws Exception {
        SuiteIdentity id = new SuiteIdentity();
        for (PlacementBench.Case c : suite()) {
            if (!c.big()) {
                System.out.println(id.row(c));
            }
        }
    }

    private final Map<String, Fabric> fabrics = new HashMap<>();
    private final Map<String, PlanFlowEncoder> encoders = new HashMap<>();

    private SuiteIdentity() {
    }

    /** The bench's own case list (read through reflection so the bench keeps it private). */
    @SuppressWarnings("unchecked")
    private static List<PlacementBench.Case> suite() throws Exception {
        Constructor<PlacementBench> k = PlacementBench.class.getDeclaredConstructor(boolean.class, boolean.class,
                String.class, boolean.class);
        k.setAccessible(true);
        Method suite = PlacementBench.class.getDeclaredMethod("suite");
        suite.setAccessible(true);
        return (List<PlacementBench.Case>) suite.invoke(k.newInstance(false, true, null, false));
    }

    private String row(PlacementBench.Case c) throws Exception {
        Fabric f = fabrics.computeIfAbsent(c.fabricKey(), x -> c.fabric().get());
        PlanFlowEncoder enc = encoders.get(c.fabricKey());
        if (enc == null) {
            enc = new PlanFlowEncoder(Planner.plan(f, null));
            encoders.put(c.fabricKey(), enc);
        }
        DenseFabric ix = DenseFabric.of(f, PlacementBench.failures(f, c.failed()));
        PlacementEngine e = new PlacementEngine(ix, enc, PlacementConfig.DEFAULTS);
        Job job = Patterns.expand(c.job().apply(f), ix, 1 << 20);
        PlacementResult r = null;
        CRC32 all = new CRC32();
        for (int i = 0; i < 4; i++) {
            if (r != null) {
                e.release(job.id());
            }
            r = e.add(job);
            for (PlacedFlow p : r.placed()) {
                update(all, p.flow().id() + p.path() + p.encoding());
            }
            update(all, r.moved().toString() + r.unplaced());
        }
        CRC32 last = new CRC32();
        long hops = 0;
        for (PlacedFlow p : r.placed()) {
            StringBuilder sb = new StringBuilder(p.flow().id()).append('|');
            for (Arc arc : p.path()) {
                sb.append(arc.link().id()).append('>').append(arc.to()).append(',');
            }
            sb.append('|').append(p.encoding().carriers()).append('|').append(p.encoding().usids()).append('|')
                    .append(p.encoding().ev());
            update(last, sb.toString());
            hops += p.path().size();
        }
        return String.format(Locale.ROOT,
                "%-28s maxload %.4f coll %d hops %d placed %d unplaced %d hash %08x all4 %08x", c.name(),
                r.quality().maxLoad(), r.quality().collisions(), hops, r.placed().size(), r.unplaced().size(),
                last.getValue(), all.getValue());
    }

    private static void update(CRC32 crc, String s) {
        crc.update(s.getBytes(StandardCharsets.UTF_8));
    }
}
