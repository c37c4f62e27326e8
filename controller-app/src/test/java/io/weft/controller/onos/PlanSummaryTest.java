package io.weft.controller.onos;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import io.weft.plan.FabricPlan;
import io.weft.plan.Planner;
import io.weft.plan.SnapshotJson;
import org.junit.jupiter.api.Test;

class PlanSummaryTest {
    @Test
    void listsEverySwitchWithDeviceLocatorAndEveryNic() throws Exception {
        TestFabric t = new TestFabric();
        t.links.remove("device:leaf1/1", "device:spine1/1");
        BuiltFabric built = t.builder().build();
        FabricPlan plan = Planner.plan(built.fabric(), null);
        PlanState state = new PlanState(built, plan, SnapshotJson.toTree(plan, built.linkStates(), 7), 7);

        List<String> lines = PlanSummary.lines(state);

        assertThat(lines.get(0)).isEqualTo(
                "fabric lab v7, block fcbb:bb00::/32, tenants default, 4 switches, 2 NICs, 6 links (1 down)");
        assertThat(lines).filteredOn(l -> l.startsWith("spine1 ")).singleElement().satisfies(l -> {
            assertThat(l).contains("device:spine1", "spine", "0x11", "fcbb:bb00:11::/48");
        });
        String leaf1 = plan.locator("leaf1");
        assertThat(lines).filteredOn(l -> l.startsWith("leaf1 ")).singleElement().satisfies(l -> {
            assertThat(l).contains("device:leaf1", leaf1, "2/0", plan.nicPrefix("leaf1"));
        });
        assertThat(lines).filteredOn(l -> l.startsWith("nic2 ")).singleElement().satisfies(l -> {
            assertThat(l).contains("leaf2", plan.nicAddress("nic2"));
        });
        assertThat(lines).noneMatch(l -> l.startsWith("problem"));
    }

    @Test
    void endsWithWhatWasLeftOut() throws Exception {
        TestFabric t = new TestFabric();
        t.configs.putApp(TestFabric.APP_ID, Fixtures.inline("{'nics':[{'id':'nic9','attach':'device:leaf9/1'}]}"));
        BuiltFabric built = t.builder().build();
        FabricPlan plan = Planner.plan(built.fabric(), null);

        List<String> lines = PlanSummary.lines(new PlanState(built, plan, null, 1));

        assertThat(lines.get(lines.size() - 1)).startsWith("problem: nic nic9: left out, device:leaf9");
    }
}
