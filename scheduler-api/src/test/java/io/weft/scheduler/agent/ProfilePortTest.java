package io.weft.scheduler.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.weft.lab.fabric.LeafSpineGenerator;
import io.weft.lab.fabric.RailGenerator;
import io.weft.plan.FabricPlan;
import io.weft.plan.Planner;
import org.junit.jupiter.api.Test;

/**
 * An agent profile names the port an entry leaves by only for a NIC with more than one port (one
 * per plane of a multi-plane fabric): the path's first link, read from the stored arc key
 * {@code link>node}. A single-port NIC's entries stay as they were, with no port.
 */
class ProfilePortTest {
    @Test
    void aMultiPlaneNicsEntriesNameTheirFirstLink() throws Exception {
        FabricPlan twoPlanes = Planner.plan(RailGenerator.generate(
                new RailGenerator.Params("rail-2pl", 8, 2, 4, 2, 2, 400, 400, 100, 500)), null);
        assertThat(ProfileCache.portOf(twoPlanes, "srv1-nic1", "srv1-nic1-up2>pl2-g1-rail1"))
                .isEqualTo("srv1-nic1-up2");
        assertThat(ProfileCache.portOf(twoPlanes, "srv1-nic1", "srv1-nic1-up1>pl1-g1-rail1"))
                .isEqualTo("srv1-nic1-up1");
        assertThat(ProfileCache.portOf(twoPlanes, "srv1-nic1", null)).isNull(); // a DENIED entry has no path
        assertThat(ProfileCache.portOf(null, "srv1-nic1", "srv1-nic1-up2>pl2-g1-rail1")).isNull();
    }

    @Test
    void aSinglePortNicsEntriesNameNone() throws Exception {
        FabricPlan onePlane = Planner.plan(LeafSpineGenerator.generate(LeafSpineGenerator.Params.of(2, 2, 2)), null);
        String nic = onePlane.nics().get(0);
        String link = onePlane.attachment(nic).link().id();
        assertThat(ProfileCache.portOf(onePlane, nic, link + ">" + onePlane.attachment(nic).to())).isNull();
    }
}
