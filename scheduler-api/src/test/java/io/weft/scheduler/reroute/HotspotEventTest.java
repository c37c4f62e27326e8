package io.weft.scheduler.reroute;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

class HotspotEventTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String GOOD = "{\"schemaVersion\":1,\"eventId\":\"e1\",\"kind\":\"hotspot-start\","
            + "\"linkId\":\"leaf1-spine2\",\"direction\":\"spine2\",\"sampleTimestampNs\":1763726400123456789,"
            + "\"detectedAt\":\"2025-11-21T12:00:00.130Z\",\"utilisation\":0.97,\"dropRate\":0.01,"
            + "\"ecnFraction\":null,\"threshold\":0.9}";

    @Test
    void readsTheFieldsTheLoopUses() throws Exception {
        HotspotEvent e = HotspotEvent.parse(JSON.readTree(GOOD));
        assertThat(e.kind()).isEqualTo(HotspotEvent.START);
        assertThat(e.key()).isEqualTo("leaf1-spine2>spine2");
        assertThat(e.sample()).isEqualTo(Instant.ofEpochSecond(1763726400L, 123456789));
        assertThat(e.detectedAt()).isEqualTo(Instant.parse("2025-11-21T12:00:00.130Z"));
    }

    @Test
    void acceptsTheSampleTimestampAsAStringLikeOtherUint64s() throws Exception {
        HotspotEvent e = HotspotEvent.parse(JSON.readTree(GOOD.replace("1763726400123456789",
                "\"1763726400123456789\"")));
        assertThat(e.sample().getNano()).isEqualTo(123456789);
    }

    @Test
    void badInputIsRejectedNamingTheField() {
        assertThatThrownBy(() -> HotspotEvent.parse(JSON.readTree(GOOD.replace("hotspot-start", "warm"))))
                .hasMessageStartingWith("kind:");
        assertThatThrownBy(() -> HotspotEvent.parse(JSON.readTree(GOOD.replace("\"linkId\":\"leaf1-spine2\",", ""))))
                .hasMessageStartingWith("linkId:");
        assertThatThrownBy(() -> HotspotEvent.parse(JSON.readTree(GOOD.replace("2025-11-21T12:00:00.130Z", "noon"))))
                .hasMessageStartingWith("detectedAt:");
        assertThatThrownBy(() -> HotspotEvent.parse(JSON.readTree(GOOD.replace("1763726400123456789", "1.5"))))
                .hasMessageStartingWith("sampleTimestampNs:");
    }
}
