package io.weft.scheduler.web;

import java.io.IOException;

import io.weft.scheduler.config.LimitsProperties;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Refuses request bodies larger than {@code weft.scheduler.limits.max-body-bytes} with 413: at once
 * when Content-Length says so, or while reading when the body is chunked (the counting stream
 * throws {@link BodyTooLargeException}, which {@link ProblemAdvice} maps to 413).
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 10)
class BodyLimitFilter extends OncePerRequestFilter {
    private static final long DRAIN_MIN_BYTES = 4L << 20;
    private final long maxBytes;

    BodyLimitFilter(LimitsProperties limits) {
        this.maxBytes = limits.maxBodyBytes();
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        long declared = request.getContentLengthLong();
        if (declared > maxBytes) {
            // Read a moderately oversize body before answering: answering and closing with unread
            // bytes in the socket makes the kernel reset the connection, and the client may then
            // never see the 413. A body far past the limit is not read; that connection is closed.
            if (declared <= drainLimit()) {
                drain(request);
            } else {
                response.setHeader("Connection", "close");
            }
            Problems.write(response, HttpStatus.CONTENT_TOO_LARGE, "body",
                    "request body of " + declared + " bytes exceeds the limit of " + maxBytes + " bytes");
            return;
        }
        chain.doFilter(new LimitedRequest(request, maxBytes), response);
    }

    /** Oversize bodies up to this size are read and dropped before the 413. */
    private long drainLimit() {
        return Math.max(DRAIN_MIN_BYTES, 4 * maxBytes);
    }

    private static void drain(HttpServletRequest request) throws IOException {
        byte[] sink = new byte[8192];
        var in = request.getInputStream();
        while (in.read(sink) >= 0) {
            // dropped
        }
    }

    /** Thrown while reading a body past the limit. */
    static final class BodyTooLargeException extends IOException {
        BodyTooLargeException(long maxBytes) {
            super("request body exceeds the limit of " + maxBytes + " bytes");
        }
    }

    private static final class LimitedRequest extends HttpServletRequestWrapper {
        private final long maxBytes;
        private ServletInputStream stream;

        LimitedRequest(HttpServletRequest request, long maxBytes) {
            super(request);
            this.maxBytes = maxBytes;
        }

        @Override
        public ServletInputStream getInputStream() throws IOException {
            if (stream == null) {
                stream = new CountingStream(super.getInputStream(), maxBytes);
            }
            return stream;
        }
    }

    private static final class CountingStream extends ServletInputStream {
        private final ServletInputStream in;
        private final long maxBytes;
        private long count;

        CountingStream(ServletInputStream in, long maxBytes) {
            this.in = in;
            this.maxBytes = maxBytes;
        }

        @Override
        public int read() throws IOException {
            int b = in.read();
            if (b >= 0) {
                add(1);
            }
            return b;
        }

        @Override
        public int read(byte[] buf, int off, int len) throws IOException {
            int n = in.read(buf, off, len);
            if (n > 0) {
                add(n);
            }
            return n;
        }

        private void add(int n) throws BodyTooLargeException {
            count += n;
            if (count > maxBytes) {
                throw new BodyTooLargeException(maxBytes);
            }
        }

        @Override
        public boolean isFinished() {
            return in.isFinished();
        }

        @Override
        public boolean isReady() {
            return in.isReady();
        }

        @Override
        public void setReadListener(ReadListener listener) {
            in.setReadListener(listener);
        }
    }
}
