package io.weft.scheduler.apibench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

class HttpResponsesTest {

    private static int[] parse(String s) {
        byte[] b = s.getBytes(StandardCharsets.US_ASCII);
        return HttpResponses.complete(b, b.length);
    }

    @Test
    void contentLengthBodyIsCompleteOnlyWhenAllBytesArrived() {
        String head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 11\r\n\r\n";
        assertThat(parse(head + "{\"version\"")).isNull();
        int[] r = parse(head + "{\"version\":");
        assertThat(r).containsExactly(200, head.length(), head.length() + 11, head.length() - 4);
        assertThat(parse("HTTP/1.1 200 OK\r\nContent-Le")).isNull();
    }

    @Test
    void bodilessStatusesEndAtTheHeaders() {
        String notModified = "HTTP/1.1 304 Not Modified\r\nWeft-Version: 7\r\n\r\n";
        assertThat(parse(notModified)).containsExactly(304, notModified.length(), notModified.length(),
                notModified.length() - 4);
        assertThat(parse("HTTP/1.1 204 No Content\r\n\r\n")[0]).isEqualTo(204);
    }

    @Test
    void chunkedBodyWaitsForTheLastChunk() {
        String head = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n";
        assertThat(parse(head + "5\r\nhello\r\n")).isNull();
        assertThat(parse(head + "5\r\nhel0\r\n\r\n")).as("a 0 inside chunk data does not end it").isNull();
        int[] r = parse(head + "5\r\nhello\r\n0\r\n\r\n");
        assertThat(r[0]).isEqualTo(200);
        assertThat(r[2]).isEqualTo((head + "5\r\nhello\r\n0\r\n\r\n").length());
    }

    @Test
    void thePublishedHeaderIsReadWhateverItsCase() {
        byte[] with = "HTTP/1.1 200 OK\r\nWeft-Version: 7\r\nweft-PUBLISHED-us: 1764081234567890\r\n\r\n"
                .getBytes(StandardCharsets.US_ASCII);
        assertThat(HttpResponses.publishedUs(with, with.length - 4)).isEqualTo(1_764_081_234_567_890L);
        byte[] without = "HTTP/1.1 200 OK\r\nWeft-Version: 7\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
        assertThat(HttpResponses.publishedUs(without, without.length - 4)).isZero();
    }

    @Test
    void somethingElseIsRefused() {
        assertThatThrownBy(() -> parse("SSH-2.0-OpenSSH\r\n\r\n")).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("not an HTTP/1.x response");
    }
}
