package io.weft.scheduler.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.weft.fabric.Fabric;
import io.weft.placement.ColumnGenerationMultipath;
import io.weft.placement.DenseFabric;
import io.weft.placement.Flow;
import io.weft.placement.FlowEncoder;
import io.weft.placement.Job;
import io.weft.placement.MultipathResult;
import io.weft.placement.PlacedFlow;
import io.weft.placement.PlacementConfig;
import io.weft.placement.PlacementEngine;
import io.weft.placement.PlanFlowEncoder;
import io.weft.placement.Unplaced;
import io.weft.plan.FabricPlan;
import io.weft.plan.Planner;
import io.weft.plan.walk.ForwardingWalk;
import org.junit.jupiter.api.Test;

/**
 * The fixture of {@link FabricSpreadTest} (jobs a and b placed one after another at max load 1.5,
 * joint splittable optimum 4/3) with the jobs in different classes: two tenants, so the planner
 * cannot take them in one call; and a flow the planner finds no path for.
 */
class FabricSpreadClassesTest {
    static final Fabric TWO_TENANTS = new Fabric(FabricSpreadTest.FABRIC.id(), FabricSpreadTest.FABRIC.name(),
            FabricSpreadTest.FABRIC.family(), FabricSpreadTest.FABRIC.srv6Block(), List.of("default", "blue"),
            FabricSpreadTest.FABRIC.nodes(), FabricSpreadTest.FABRIC.links(), FabricSpreadTest.FABRIC.params());

    FabricPlan plan;
    PlacementEngine engine;

    void place(Fabric fabric, String tenantA, String tenantB) throws Exception {
        place(fabric, tenantA, tenantB, false);
    }

    /** As {@link #place(Fabric, String, String)}, job a placed on its NICs' home ports only when asked. */
    void place(Fabric fabric, String tenantA, String tenantB, boolean aHomePortsOnly) throws Exception {
        plan = Planner.plan(fabric, null);
        engine = new PlacementEngine(DenseFabric.of(fabric), new PlanFlowEncoder(plan), PlacementConfig.DEFAULTS);
        Job a = inTenant(FabricSpreadTest.job("a", 1, 2), tenantA).withHomePortsOnly(aHomePortsOnly);
        MultipathPlacement.place(engine, plan, a, FabricSpreadTest.TWO_PATHS, Encoding.BOTH,
                FabricSpreadTest.BUDGET_MS);
        MultipathPlacement.place(engine, plan, inTenant(FabricSpreadTest.job("b", 3, 3), tenantB),
                FabricSpreadTest.TWO_PATHS, Encoding.BOTH, FabricSpreadTest.BUDGET_MS);
        assertThat(engine.quality().maxLoad()).as("one after another").isCloseTo(1.5, within(1e-9));
    }

    /** Jobs a (tenant default) and b (blue) placed one after another; their spread settings. */
    List<FabricSpread.SpreadJob> placeTwoTenants() throws Exception {
        place(TWO_TENANTS, "default", "blue");
        return List.of(new FabricSpread.SpreadJob("a", "default", Encoding.BOTH, 2, 16),
                new FabricSpread.SpreadJob("b", "blue", Encoding.BOTH, 2, 16));
    }

    static Job inTenant(Job j, String tenant) {
        return new Job(j.id(), tenant, j.flows(), j.homePortsOnly());
    }

    MultipathPlacement.Spreader planner() {
        return (j, options, background) -> new ColumnGenerationMultipath(engine.index(), new PlanFlowEncoder(plan),
                engine.config()).place(j, options, background);
    }

    @Test
    void twoTenantsAreSpreadJointlyAndTheJointBoundIsReported() throws Exception {
        List<FabricSpread.SpreadJob> jobs = placeTwoTenants();

        FabricSpread.Plan p = FabricSpread.plan(engine, jobs, FabricSpreadTest.BUDGET_MS, planner());

        assertThat(p.fallback()).isNull();
        double lp = FabricSpreadTest.leafSpineOptimum();
        // The joint optimum (both classes share the port rule), not a class's optimum with the other fixed.
        assertThat(p.optimum()).isCloseTo(lp, within(1e-6));
        assertThat(p.lowerBound()).isLessThanOrEqualTo(lp + 1e-9);
        assertThat(p.maxLoadAfter()).isBetween(lp - 1e-9, 1.375 + 1e-9);
        assertThat(p.left()).isEmpty();

        FabricSpread.apply(engine, p);

        assertThat(engine.quality().maxLoad()).isCloseTo(p.maxLoadAfter(), within(1e-9));
        for (String[] jt : new String[][] {{"a", "default"}, {"b", "blue"}}) {
            for (PlacedFlow s : engine.placedFlows(jt[0])) {
                // Each slice is encoded for its own tenant's VRF.
                assertThat(ForwardingWalk.walkCarriers(plan, s.flow().srcNic(), s.flow().dstNic(),
                        s.encoding().carriers(), jt[1])).isEqualTo(s.path());
            }
        }
    }

    /**
     * A path that does not encode for tenant blue (here: none over the spine the plan gave job b)
     * is dropped for b only; the pass still applies, b's flows keep their other paths.
     */
    @Test
    void aPathThatDoesNotEncodeForOneTenantIsDroppedForThatJobOnly() throws Exception {
        List<FabricSpread.SpreadJob> jobs = placeTwoTenants();
        FabricSpread.Plan free = FabricSpread.plan(engine, jobs, FabricSpreadTest.BUDGET_MS, planner());
        DenseFabric ix = engine.index();
        String spine = free.flows().stream().filter(f -> f.job().id().equals("b"))
                .flatMap(f -> f.paths().stream()).map(arcs -> ix.nodeId(ix.to(arcs[1]))).findFirst().orElseThrow();
        FlowEncoder real = new PlanFlowEncoder(plan);
        FlowEncoder noBlueOverSpine = (path, tenant) -> {
            if (tenant.equals("blue") && path.stream().anyMatch(a -> a.to().equals(spine))) {
                throw new FlowEncoder.EncodingFailure("no blue SID on " + spine);
            }
            return real.encode(path, tenant);
        };

        FabricSpread.Plan p = FabricSpread.plan(FabricSpread.Snapshot.of(engine, jobs), jobs,
                FabricSpreadTest.BUDGET_MS, planner(), noBlueOverSpine);

        assertThat(p.fallback()).isNull();
        assertThat(p.dropped()).isNotEmpty().allSatisfy(d -> assertThat(d).startsWith("b/")
                .contains("via leaf1>" + spine + ">").contains("tenant blue").contains("dropped for job b only"));
        List<String> spreadB = new ArrayList<>();
        for (FabricSpread.PatternFlow f : p.flows()) {
            if (f.job().id().equals("b") && !f.paths().isEmpty()) { // a flow left without a path keeps its own
                spreadB.add(f.flow().id());
                f.paths().forEach(arcs -> assertThat(ix.nodeId(ix.to(arcs[1]))).isNotEqualTo(spine));
                assertThat(f.units().stream().mapToInt(Integer::intValue).sum()).isEqualTo(16);
            }
        }
        assertThat(spreadB).isNotEmpty();
        FabricSpread.apply(engine, p);
        assertThat(engine.quality().maxLoad()).isCloseTo(p.maxLoadAfter(), within(1e-9));
        for (PlacedFlow s : engine.placedFlows("b")) {
            if (spreadB.stream().anyMatch(id -> s.flow().id().startsWith(id + "."))) {
                assertThat(s.nodes()).doesNotContain(spine);
            }
        }
    }

    @Test
    void aJobPlacedOnHomePortsKeepsThemAndTheBoundComesFromTheCallWithout() throws Exception {
        // An EV-only job is placed so where EV routing cannot reach every port; the re-spread keeps its rule.
        place(FabricSpreadTest.FABRIC, "default", "default", true);
        List<FabricSpread.SpreadJob> jobs = List.of(new FabricSpread.SpreadJob("a", "default", Encoding.EV, 2, 16),
                new FabricSpread.SpreadJob("b", "default", Encoding.BOTH, 2, 16));
        List<Boolean> homePorts = new ArrayList<>();
        List<MultipathResult> answers = new ArrayList<>();
        MultipathPlacement.Spreader recording = (j, options, background) -> {
            homePorts.add(j.homePortsOnly());
            answers.add(planner().spread(j, options, background));
            return answers.get(answers.size() - 1);
        };

        FabricSpread.Plan p = FabricSpread.plan(engine, jobs, FabricSpreadTest.BUDGET_MS, recording);

        assertThat(p.fallback()).isNull();
        // The answer with every flow on its home ports (one port each here), then the bound without.
        assertThat(homePorts).containsExactly(true, false);
        assertThat(p.optimum()).as("not proven for the mixed rule").isNaN();
        assertThat(p.lowerBound()).isLessThanOrEqualTo(FabricSpreadTest.leafSpineOptimum() + 1e-9);
        assertThat(p.maxLoadAfter()).isLessThanOrEqualTo(1.375 + 1e-9);
        // The granular bound comes from the same call as the bound (home ports are a restriction).
        assertThat(p.granularBound()).isEqualTo(answers.get(1).granularBound());
        assertThat(p.granularBound()).isBetween(p.lowerBound() - 1e-9, p.maxLoadAfter() + 1e-9);
    }

    @Test
    void aFlowWithoutAPathIsLeftAsItIsAndTheRestSpread() throws Exception {
        place(FabricSpreadTest.FABRIC, "default", "default");
        Map<String, List<String>> before = new HashMap<>();
        for (PlacedFlow s : engine.placedFlows("b")) {
            if (s.flow().id().startsWith("b/1")) {
                before.put(s.flow().id(), s.nodes());
            }
        }
        // The real planner without b/1, which it reports as having no path.
        MultipathPlacement.Spreader noPathForB1 = (j, options, background) -> {
            List<Flow> rest = new ArrayList<>();
            Flow b1 = null;
            for (Flow f : j.flows()) {
                if (f.id().equals("b/1")) {
                    b1 = f;
                } else {
                    rest.add(f);
                }
            }
            MultipathResult m = planner().spread(new Job(j.id(), j.tenant(), rest, j.homePortsOnly()), options,
                    background);
            List<Unplaced> unplaced = new ArrayList<>(m.unplaced());
            if (b1 != null) {
                unplaced.add(new Unplaced(b1, "no surviving path"));
            }
            return new MultipathResult(m.flows(), unplaced, m.fallback(), m.singlePathMaxLoad(),
                    m.splittableOptimum(), m.lowerBound(), m.fractionalMaxLoad(), m.maxLoad(), m.roundingBound(),
                    m.gapBound(), m.iterations(), m.columns());
        };

        FabricSpread.Plan p = FabricSpread.plan(engine, FabricSpreadTest.jobs(), FabricSpreadTest.BUDGET_MS,
                noPathForB1);

        assertThat(p.fallback()).isNull();
        assertThat(p.left()).containsExactly("b/1: no surviving path");
        assertThat(p.flows()).hasSize(4);
        assertThat(p.changed()).extracting(f -> f.flow().id()).doesNotContain("b/1").isNotEmpty();
        assertThat(p.maxLoadAfter()).isLessThan(p.maxLoadBefore());

        FabricSpread.apply(engine, p);

        Map<String, List<String>> after = new HashMap<>();
        for (PlacedFlow s : engine.placedFlows("b")) {
            if (s.flow().id().startsWith("b/1")) {
                after.put(s.flow().id(), s.nodes());
            }
        }
        assertThat(after).isEqualTo(before);
        assertThat(engine.quality().maxLoad()).isCloseTo(p.maxLoadAfter(), within(1e-9));
    }
}
