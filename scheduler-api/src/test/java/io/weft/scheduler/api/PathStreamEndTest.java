package io.weft.scheduler.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

import io.weft.devstack.DevstackEndpoints;
import io.weft.devstack.junit.WeftDevstackTest;
import org.junit.jupiter.api.Test;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A profile stream when the service stops: its events are chunks the stream writes itself, and its
 * end is Jetty's last chunk, so the agent sees the body end cleanly (and reconnects) instead of a
 * cut connection or a misframed body. Its own service: stopping it would end the shared one.
 */
@WeftDevstackTest
class PathStreamEndTest {
    private static final String AGENT = "end-agent-token-0123456789";

    @Test
    void aStreamEndsWithTheLastChunkWhenTheServiceStops(DevstackEndpoints e) throws Exception {
        String schema = "stream_end_" + System.nanoTime();
        ConfigurableApplicationContext app = SchemaService.start(e, schema,
                "--weft.scheduler.auth.tokens=a:agent:nic1=" + AGENT);
        boolean closed = false;
        try {
            int port = ((WebServerApplicationContext) app).getWebServer().getPort();
            try (Socket s = new Socket("127.0.0.1", port)) {
                s.setSoTimeout(30_000);
                s.getOutputStream().write(("GET /v1/agents/nic1/paths/stream HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                        + "Authorization: Bearer " + AGENT + "\r\nAccept: text/event-stream\r\n\r\n")
                        .getBytes(StandardCharsets.US_ASCII));
                InputStream in = s.getInputStream();
                assertThat(line(in)).startsWith("HTTP/1.1 200");
                boolean chunked = false;
                for (String h = line(in); !h.isEmpty(); h = line(in)) {
                    chunked |= h.equalsIgnoreCase("Transfer-Encoding: chunked");
                }
                assertThat(chunked).isTrue();
                int size = Integer.parseInt(line(in), 16);
                assertThat(new String(in.readNBytes(size), StandardCharsets.UTF_8)).contains("event:profile\n");
                assertThat(line(in)).isEmpty();

                app.close();
                closed = true;
                assertThat(line(in)).as("the last chunk").isEqualTo("0");
                assertThat(line(in)).as("no trailers, the body's end").isEmpty();
            }
        } finally {
            if (!closed) {
                app.close();
            }
        }
    }

    /** One CRLF-ended line, without its end. */
    private static String line(InputStream in) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        for (int c = in.read(); c != '\n'; c = in.read()) {
            if (c < 0) {
                throw new IOException("the stream ended mid-line: " + b);
            }
            if (c != '\r') {
                b.write(c);
            }
        }
        return b.toString(StandardCharsets.UTF_8);
    }
}
