package io.weft.scheduler.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;

import org.eclipse.jetty.http.PreEncodedHttpField;
import org.junit.jupiter.api.Test;

/** The bytes a profile stream writes: one SSE event per version, framed as one whole HTTP/1.1 chunk. */
class StreamFastPathTest {

    @Test
    void anEventIsThePublishCommentTheEventNameItsVersionAndTheProfile() {
        byte[] json = "{\"nic\":\"nic1\",\"version\":7}".getBytes(StandardCharsets.UTF_8);
        StreamFastPath.Event e = StreamFastPath.encode(new ProfileBytes.Json(7, json, 1_764_081_234_567_890L,
                new PreEncodedHttpField("Weft-Version", "7"), null));
        String event = ":published-us=1764081234567890\nevent:profile\nid:7\ndata:{\"nic\":\"nic1\",\"version\":7}\n\n";
        assertThat(new String(e.bytes(), StandardCharsets.UTF_8))
                .isEqualTo(Integer.toHexString(event.length()) + "\r\n" + event + "\r\n");
        assertThat(e.version()).isEqualTo(7);
        StreamFastPath.Event unknown = StreamFastPath.encode(new ProfileBytes.Json(8, json, 0,
                new PreEncodedHttpField("Weft-Version", "8"), null));
        assertThat(new String(unknown.bytes(), StandardCharsets.UTF_8)).as("no comment when not known")
                .contains("\r\nevent:profile\nid:8\n");
    }

    @Test
    void aChunkIsItsHexSizeAndTheBytesEachEndedByCrlf() {
        byte[] data = new byte[300];
        java.util.Arrays.fill(data, (byte) 'x');
        String framed = new String(StreamFastPath.chunk(data), StandardCharsets.US_ASCII);
        assertThat(framed).startsWith("12c\r\nxxx").endsWith("xxx\r\n").hasSize(5 + 300 + 2);
    }

    @Test
    void aStreamWrittenWithinTheHeartbeatPeriodGetsNoHeartbeat() {
        long period = java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(PathStreams.HEARTBEAT_MS);
        long now = 5 * period;
        assertThat(StreamFastPath.beatDue(now, now - period / 100)).as("an event just went out").isFalse();
        assertThat(StreamFastPath.beatDue(now, now - period + 1)).isFalse();
        assertThat(StreamFastPath.beatDue(now, now - period)).as("a whole period silent").isTrue();
        assertThat(StreamFastPath.beatDue(now, now - 2 * period)).isTrue();
        // Two sweeps a period apart: a stream skipped by the first is beaten by the second, so two writes
        // are never more than two periods apart, under Jetty's idle timeout.
        assertThat(2 * PathStreams.HEARTBEAT_MS).isLessThan(90_000L);
    }
}
