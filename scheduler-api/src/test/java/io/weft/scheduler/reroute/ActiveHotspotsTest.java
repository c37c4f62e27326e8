package io.weft.scheduler.reroute;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;

import io.weft.contracts.HotspotEvent;
import io.weft.fabric.Fabric;
import io.weft.lab.fabric.LeafSpineGenerator;
import io.weft.placement.DenseFabric;
import org.junit.jupiter.api.Test;

class ActiveHotspotsTest {
    private final Fabric fabric = LeafSpineGenerator.generate(LeafSpineGenerator.Params.of(2, 2, 2));
    private final DenseFabric ix = DenseFabric.of(fabric);
    private final ActiveHotspots active = new ActiveHotspots();
    private final MoveBudget budget = new MoveBudget(500);

    static HotspotEvent event(String id, String kind, String link, String direction) {
        Instant t = Instant.parse("2026-11-27T03:00:00Z");
        return HotspotEvents.of(id, kind, link, direction, t.minusMillis(5), t);
    }

    @Test
    void aStartMakesItsDirectionHotWithItsArcAndTimes() {
        HotspotEvent e = event("h1", HotspotEvents.START, "leaf1-spine1", "spine1");
        active.started(e, Instant.now());
        budget.roll(0);
        budget.spend(e.directionKey().toString(), "f1");
        ActiveHotspots.Hot hot = active.resolve(ix, budget, true);
        int arc = ix.arcOf("leaf1-spine1", "leaf1");
        assertThat(hot.arcs()).singleElement().satisfies(h -> {
            assertThat(h.arc()).isEqualTo(arc);
            assertThat(h.hotspotId()).isEqualTo("h1");
            assertThat(h.sinceMs()).isEqualTo(e.detectedAt().toEpochMilli());
        });
        assertThat(hot.usedByArc()).containsEntry(arc, 1);
        assertThat(hot.byEventId()).containsKey("h1");
        assertThat(active.resolve(ix, budget, false).arcs().get(0).sinceMs()).as("link-down pass: no times")
                .isZero();
    }

    @Test
    void aRepeatedStartKeepsTheFirstAndAnEndRemovesIt() {
        active.started(event("h1", HotspotEvents.START, "leaf1-spine1", "spine1"), Instant.now());
        active.started(event("h2", HotspotEvents.START, "leaf1-spine1", "spine1"), Instant.now());
        assertThat(active.resolve(ix, budget, true).byEventId()).containsOnlyKeys("h1");
        active.ended(event("h3", HotspotEvents.END, "leaf1-spine1", "spine1"));
        assertThat(active.isEmpty()).isTrue();
    }

    @Test
    void aLinkDownClearsBothDirectionsOfThatLinkOnly() {
        active.started(event("h1", HotspotEvents.START, "leaf1-spine1", "spine1"), Instant.now());
        active.started(event("h2", HotspotEvents.START, "leaf1-spine1", "leaf1"), Instant.now());
        active.started(event("h3", HotspotEvents.START, "leaf1-spine2", "spine2"), Instant.now());
        active.linkDown("leaf1-spine1");
        assertThat(active.resolve(ix, budget, true).byEventId()).containsOnlyKeys("h3");
    }

    @Test
    void aDirectionTheFabricDoesNotHaveIsLeftOut() {
        active.started(event("h1", HotspotEvents.START, "leaf9-spine9", "spine9"), Instant.now());
        active.started(event("h2", HotspotEvents.START, "leaf1-spine1", "nowhere"), Instant.now());
        assertThat(active.resolve(ix, budget, true).arcs()).isEmpty();
        assertThat(active.isEmpty()).as("kept: a later fabric may have it").isFalse();
    }
}
