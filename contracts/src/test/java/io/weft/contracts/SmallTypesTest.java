package io.weft.contracts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;

import org.junit.jupiter.api.Test;

/** Direction keys, link states and the hotspot event's reader on inputs the vectors do not cover. */
class SmallTypesTest {
    @Test
    void directionKeyIsLinkIdArrowToNodeBothWays() {
        DirectionKey k = DirectionKey.of("leaf1-spine1", "spine1");
        assertThat(k.toString()).isEqualTo("leaf1-spine1>spine1")
                .isEqualTo(DirectionKey.text("leaf1-spine1", "spine1"));
        assertThat(DirectionKey.parse("leaf1-spine1>spine1")).isEqualTo(k).hasSameHashCodeAs(k);
        assertThat(DirectionKey.parse("a>b").linkId()).isEqualTo("a");
        assertThat(DirectionKey.parse("a>b").toNode()).isEqualTo("b");
        for (String bad : new String[] {"", "ab", ">b", "a>", "a>b>c"}) {
            assertThatThrownBy(() -> DirectionKey.parse(bad)).as(bad).isInstanceOf(ContractException.class)
                    .hasMessageContaining("linkId>toNode");
        }
    }

    @Test
    void linkStatesAreTheSnapshotsLowerCaseNames() {
        assertThat(LinkState.fromJson("linkStates.l1", "drained")).isEqualTo(LinkState.DRAINED);
        assertThat(LinkState.UP.json()).isEqualTo("up");
        assertThat(LinkState.DOWN.usable()).isFalse();
        assertThat(LinkState.UP.usable()).isTrue();
        assertThatThrownBy(() -> LinkState.fromJson("linkStates.l1", "DRAINED"))
                .isInstanceOfSatisfying(ContractException.class, e -> assertThat(e.field()).isEqualTo("linkStates.l1"));
    }

    @Test
    void hotspotEventRefusesWhatIsNotAnObjectOrNotJson() {
        assertThatThrownBy(() -> HotspotEvent.fromJson("[1]")).hasMessage("$: must be a JSON object");
        assertThatThrownBy(() -> HotspotEvent.fromJson("{\"schemaVersion\":1")).hasMessageStartingWith("$: not JSON");
        assertThatThrownBy(() -> HotspotEvent.fromJson((String) null)).hasMessageStartingWith("$: no value");
    }

    @Test
    void uint64AboveTheRangeIsRefusedThoughTheSchemaPatternAllowsTwentyDigits() {
        String max = new HotspotEvent("id", HotspotEvent.Kind.LINK_UP, "l", "n", -1, Instant.EPOCH, Double.NaN,
                Double.NaN, Double.NaN, Double.NaN).toJson();
        assertThat(max).contains("\"18446744073709551615\"");
        assertThat(HotspotEvent.fromJson(max).sampleTimestampNs()).isEqualTo(-1L);
        assertThatThrownBy(() -> HotspotEvent.fromJson(max.replace("18446744073709551615", "18446744073709551616")))
                .hasMessageStartingWith("sampleTimestampNs: must be an unsigned 64-bit integer");
    }

    @Test
    void hotspotEventAcceptsAnOffsetDateTimeAndWritesUtc() {
        HotspotEvent e = new HotspotEvent("id", HotspotEvent.Kind.LINK_UP, "l", "n", 5, Instant.parse(
                "2026-11-27T03:00:00Z"), Double.NaN, Double.NaN, Double.NaN, Double.NaN);
        String json = e.toJson().replace("2026-11-27T03:00:00Z", "2026-11-27T04:00:00+01:00");
        assertThat(HotspotEvent.fromJson(json)).isEqualTo(e);
        assertThat(e.sampledAt()).isEqualTo(Instant.ofEpochSecond(0, 5));
    }
}
