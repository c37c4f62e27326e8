package io.weft.lab.netns;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import io.weft.fabric.Arc;
import io.weft.fabric.FabricJson;
import io.weft.lab.fabric.FatTreeGenerator;
import io.weft.plan.FabricPlan;
import io.weft.plan.PathEncoder;
import io.weft.plan.Planner;
import org.junit.jupiter.api.Test;

/** The commands NetnsLab runs, recorded by a fake shell (no root needed). */
class NetnsLabCommandsTest {
    /** Records every command; answers `ip netns list` with {@code netns} and fails stdin batches on demand. */
    static final class FakeShell extends Shell {
        // Synchronized: NetnsLab runs per-namespace steps on several threads.
        final List<String> commands = java.util.Collections.synchronizedList(new ArrayList<>());
        final List<String> stdins = java.util.Collections.synchronizedList(new ArrayList<>());
        String netns = "";
        Result batchResult = new Result(0, "", "");

        @Override
        public Result exec(List<String> command, String stdin) {
            commands.add(String.join(" ", command));
            stdins.add(stdin);
            if (command.equals(List.of("ip", "netns", "list"))) {
                return new Result(0, netns, "");
            }
            return stdin != null ? batchResult : new Result(0, "", "");
        }
    }

    private static FabricPlan plan2x2() throws Exception {
        return Planner.plan(FabricJson.read(Path.of("../../contracts/examples/leaf-spine-2x2.json")), null);
    }

    @Test
    void programPathInstallsTheNicAgentsRoute() throws Exception {
        FakeShell sh = new FakeShell();
        FabricPlan plan = plan2x2();
        NetnsLab lab = new NetnsLab(plan, "t", sh);
        List<Arc> path = LabPaths.via(plan, "nic1", "nic3", List.of("leaf1", "spine2", "leaf2"));
        lab.programPath("nic1", "nic3", PathEncoder.encode(plan, path, "default"));
        assertThat(sh.commands).containsExactly("ip -n wl-t-nic1 -6 route replace 2001:db8:0:2::1/128 encap seg6"
                + " mode encap.red segs fcbb:bb00:1:12:2:e000:: dev p0 via fe80::2 proto 200");
    }

    @Test
    void twoCarriersAreCommaSeparatedInOneSegsList() throws Exception {
        FakeShell sh = new FakeShell();
        FabricPlan plan = Planner.plan(FatTreeGenerator.generate(FatTreeGenerator.kary(4)), null);
        NetnsLab lab = new NetnsLab(plan, "t", sh);
        List<Arc> path = LabPaths.via(plan, "p1-leaf1-nic1", "p2-leaf2-nic1",
                List.of("p1-leaf1", "p1-spine1", "ss1", "p2-spine1", "p2-leaf1", "p2-spine2", "p2-leaf2"));
        var enc = PathEncoder.encode(plan, path, "default");
        lab.programPath("p1-leaf1-nic1", "p2-leaf2-nic1", enc);
        assertThat(enc.carriers()).hasSize(2);
        assertThat(sh.commands.get(0))
                .contains(" segs " + enc.carriers().get(0) + "," + enc.carriers().get(1) + " dev p0 ");
    }

    @Test
    void programPathRejectsSwitchesAsEndpoints() throws Exception {
        FabricPlan plan = plan2x2();
        NetnsLab lab = new NetnsLab(plan, "t", new FakeShell());
        var enc = PathEncoder.encode(plan, LabPaths.shortest(plan, "nic1", "nic3"), "default");
        assertThatThrownBy(() -> lab.programPath("leaf1", "nic3", enc)).hasMessage(
                "srcNic: \"leaf1\" is not a NIC of fabric ls-2x2");
    }

    @Test
    void downDeletesOnlyItsOwnTagsNamespaces() throws Exception {
        FakeShell sh = new FakeShell();
        sh.netns = "wl-t-leaf1 (id: 3)\nwl-t-nic1\nwl-tt-leaf1\nother\n";
        assertThat(NetnsLab.down("t", sh)).isEqualTo(2);
        assertThat(sh.stdins.get(1)).isEqualTo("netns del wl-t-leaf1\nnetns del wl-t-nic1\n");
        assertThat(NetnsLab.namespaces(sh)).containsExactly("wl-t-leaf1", "wl-t-nic1", "wl-tt-leaf1");
    }

    @Test
    void aRefusedBatchLineIsNamedAndTheHalfBuiltLabIsRemoved() throws Exception {
        FakeShell sh = new FakeShell();
        sh.batchResult = new Shell.Result(1, "", "Error: Nexthop has invalid gateway.\nCommand failed -:2\n");
        NetnsLab lab = new NetnsLab(plan2x2(), "t", sh);
        assertThatThrownBy(() -> lab.up(NetnsLab.Progress.NONE))
                .isInstanceOf(LabException.class)
                .hasMessage("root namespace at \"netns add wl-t-leaf2\": Error: Nexthop has invalid gateway.");
        assertThat(sh.commands).last().isEqualTo("ip netns list");
    }

    @Test
    void shortestPathFollowsThePublishedNextHopOrder() throws Exception {
        FabricPlan plan = plan2x2();
        List<Arc> p = LabPaths.shortest(plan, "nic1", "nic4");
        assertThat(p).extracting(Arc::to).containsExactly("leaf1", "spine1", "leaf2", "nic4");
        assertThat(LabPaths.reverse(p)).extracting(Arc::to).containsExactly("leaf2", "spine1", "leaf1", "nic1");
        assertThatThrownBy(() -> LabPaths.via(plan, "nic1", "nic3", List.of("leaf1", "leaf2")))
                .hasMessage("via: no link between leaf1 and leaf2");
        assertThatThrownBy(() -> LabPaths.via(plan, "nic1", "nic3", List.of("leaf2")))
                .hasMessage("via: nic1 is not linked to leaf2");
    }
}
