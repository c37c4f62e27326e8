package io.weft.scheduler.apibench;

import java.nio.charset.StandardCharsets;
import java.util.Locale;

/** Finds where an HTTP/1.1 response in a byte buffer ends (for {@link NioHttp}). */
final class HttpResponses {
    private HttpResponses() {
    }

    /**
     * {status, bodyStart, bodyEnd, headerEnd} when {@code buf[0..len)} holds a complete response, else null.
     * A chunked body is returned raw (chunk headers included): the benchmark only times it.
     */
    static int[] complete(byte[] buf, int len) {
        int headerEnd = indexOf(buf, len, 0, "\r\n\r\n");
        if (headerEnd < 0) {
            return null;
        }
        String head = new String(buf, 0, headerEnd, StandardCharsets.US_ASCII);
        if (!head.startsWith("HTTP/1.") || head.length() < 12) {
            throw new IllegalStateException("not an HTTP/1.x response: " + head.lines().findFirst().orElse(""));
        }
        int status = Integer.parseInt(head.substring(9, 12));
        int bodyStart = headerEnd + 4;
        if (status == 204 || status == 304 || (status >= 100 && status < 200)) {
            return new int[] {status, bodyStart, bodyStart, headerEnd};
        }
        String lower = head.toLowerCase(Locale.ROOT);
        int cl = lower.indexOf("\r\ncontent-length:");
        if (cl >= 0) {
            int from = cl + "\r\ncontent-length:".length();
            int to = lower.indexOf("\r\n", from);
            int length = Integer.parseInt(lower.substring(from, to < 0 ? lower.length() : to).trim());
            return len >= bodyStart + length ? new int[] {status, bodyStart, bodyStart + length, headerEnd} : null;
        }
        if (lower.contains("\r\ntransfer-encoding: chunked")) {
            // The last chunk is "0\r\n" followed by the empty trailer line.
            int end = indexOf(buf, len, bodyStart, "0\r\n\r\n");
            while (end >= 0 && end + 5 != len) {
                end = indexOf(buf, len, end + 1, "0\r\n\r\n");
            }
            return end >= 0 && (end == bodyStart || buf[end - 1] == '\n')
                    ? new int[] {status, bodyStart, len, headerEnd} : null;
        }
        // Neither: the service always sends one of the two; treat the headers as the whole response.
        return new int[] {status, bodyStart, bodyStart, headerEnd};
    }

    private static final byte[] PUBLISHED = "\r\nweft-published-us:".getBytes(StandardCharsets.US_ASCII);

    /** The {@code Weft-Published-Us} header's value in {@code buf[0..headerEnd)}, 0 when absent. */
    static long publishedUs(byte[] buf, int headerEnd) {
        outer:
        for (int i = 0; i + PUBLISHED.length <= headerEnd; i++) {
            for (int j = 0; j < PUBLISHED.length; j++) {
                byte b = buf[i + j];
                if ((b >= 'A' && b <= 'Z' ? b + 32 : b) != PUBLISHED[j]) {
                    continue outer;
                }
            }
            int k = i + PUBLISHED.length;
            while (k < headerEnd && buf[k] == ' ') {
                k++;
            }
            long us = 0;
            while (k < headerEnd && buf[k] >= '0' && buf[k] <= '9') {
                us = us * 10 + (buf[k++] - '0');
            }
            return us;
        }
        return 0;
    }

    private static int indexOf(byte[] buf, int len, int from, String needle) {
        byte[] n = needle.getBytes(StandardCharsets.US_ASCII);
        outer:
        for (int i = from; i + n.length <= len; i++) {
            for (int j = 0; j < n.length; j++) {
                if (buf[i + j] != n[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
