package io.weft.scheduler.apibench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;

/**
 * A minimal HTTP/1.1 client for the benchmark: a few selector threads (one per core by default, as
 * agents on many hosts read in parallel) share the connections, each connection carries one request
 * at a time and is kept alive. The JDK HttpClient spends far more CPU per request than the service
 * under test once ten thousand connections are open, and then the benchmark measures itself; this
 * client does one read, a header scan and a callback per response. Its threads' CPU time is reported
 * ({@link #cpuMs}) so that a reader can tell.
 *
 * <p>Understands what the service sends: Content-Length bodies, chunked bodies (as a whole:
 * complete once the terminating chunk arrived) and bodiless 204/304.
 */
final class NioHttp implements AutoCloseable {
    /**
     * Called on the selector thread when a response is complete (status -1: connection failed);
     * {@code publishedUs} is its {@code Weft-Published-Us} header (0 when absent).
     */
    interface Done {
        void done(int status, byte[] body, long atNanos, long publishedUs);
    }

    /**
     * Called on the selector thread for every profile event a stream receives, with the event's
     * {@code :published-us=} comment (epoch µs at which the service published the version).
     */
    interface Event {
        void event(long atNanos, long publishedUs);
    }

    /** The epoch in µs at a System.nanoTime() reading: one base, so no clock read per event. */
    private static final long BASE_NANOS = System.nanoTime();
    private static final long BASE_EPOCH_US;

    static {
        java.time.Instant now = java.time.Instant.now();
        BASE_EPOCH_US = now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
    }

    static long epochUs(long atNanos) {
        return BASE_EPOCH_US + (atNanos - BASE_NANOS) / 1_000;
    }

    /** One kept-alive connection; at most one request in flight. */
    static final class Conn {
        private final Loop loop;
        private final SocketChannel channel;
        private SelectionKey key;
        private ByteBuffer out;
        private ByteBuffer in = ByteBuffer.allocate(4096);
        private Done pending;
        /** Set while the connection carries a server-sent event stream. */
        private Event streaming;

        private Conn(Loop loop, SocketChannel channel) {
            this.loop = loop;
            this.channel = channel;
        }
    }

    private final InetSocketAddress address;
    private final String hostHeader;
    private final List<Conn> conns = new ArrayList<>();
    private final Loop[] loops;
    private int nextLoop;
    private volatile boolean open = true;

    /** With {@code loops} selector threads; connections are spread over them in turn. */
    NioHttp(String host, int port, int loops) throws IOException {
        this.address = new InetSocketAddress(host, port);
        this.hostHeader = host + ":" + port;
        this.loops = new Loop[loops];
        for (int i = 0; i < loops; i++) {
            this.loops[i] = new Loop("bench-nio-http-" + i);
        }
    }

    int loops() {
        return loops.length;
    }

    /** Opens a connection (blocking connect on the caller's thread) and hands it to a selector. */
    Conn connect() throws IOException {
        SocketChannel ch = SocketChannel.open(address);
        ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
        ch.configureBlocking(false);
        Conn c;
        synchronized (conns) {
            c = new Conn(loops[nextLoop++ % loops.length], ch);
            conns.add(c);
        }
        c.loop.run(() -> {
            try {
                c.key = ch.register(c.loop.selector, 0, c);
            } catch (IOException e) {
                throw new IllegalStateException("cannot register a connection", e);
            }
        });
        return c;
    }

    /** The bytes of a GET with the given bearer token (build once, send many times). */
    byte[] get(String pathAndQuery, String token) {
        return ("GET " + pathAndQuery + " HTTP/1.1\r\nHost: " + hostHeader + "\r\nAuthorization: Bearer " + token
                + "\r\nAccept: application/json\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
    }

    /** Sends a request on an idle connection; {@code done} runs on the selector thread. */
    void send(Conn c, byte[] request, Done done) {
        c.loop.run(() -> {
            if (c.pending != null) {
                throw new IllegalStateException("connection busy");
            }
            c.pending = done;
            c.out = ByteBuffer.wrap(request);
            c.in.clear();
            write(c);
        });
    }

    /**
     * Opens a server-sent event stream on an idle connection: {@code event} runs for every
     * {@code event:profile} line that arrives, for as long as the connection lives. The bytes are
     * scanned for the marker, not parsed (chunk framing is ignored): the service writes each event,
     * marker included, in one chunk.
     */
    void stream(Conn c, byte[] request, Event event) {
        c.loop.run(() -> {
            if (c.pending != null || c.streaming != null) {
                throw new IllegalStateException("connection busy");
            }
            c.streaming = event;
            c.out = ByteBuffer.wrap(request);
            c.in.clear();
            write(c);
        });
    }

    /** The bytes of a stream request (Accept: text/event-stream). */
    byte[] getStream(String pathAndQuery, String token) {
        return ("GET " + pathAndQuery + " HTTP/1.1\r\nHost: " + hostHeader + "\r\nAuthorization: Bearer " + token
                + "\r\nAccept: text/event-stream\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
    }

    private static final byte[] PUBLISHED = ":published-us=".getBytes(StandardCharsets.US_ASCII);

    /**
     * Reports every event in the stream's buffer (found by its {@code :published-us=} line, which
     * the service writes in the same chunk as the rest of the event) and keeps only a possible
     * partial one.
     */
    private static void scanStream(Conn c) {
        byte[] a = c.in.array();
        int end = c.in.position();
        int keepFrom = Math.max(0, end - (PUBLISHED.length - 1));
        long at = System.nanoTime();
        outer:
        for (int i = 0; i + PUBLISHED.length <= end; i++) {
            for (int j = 0; j < PUBLISHED.length; j++) {
                if (a[i + j] != PUBLISHED[j]) {
                    continue outer;
                }
            }
            int k = i + PUBLISHED.length;
            long us = 0;
            while (k < end && a[k] >= '0' && a[k] <= '9') {
                us = us * 10 + (a[k++] - '0');
            }
            if (k == end) {
                keepFrom = i; // the number may go on in the next read
                break;
            }
            c.streaming.event(at, us);
            keepFrom = Math.max(keepFrom, k);
            i = k;
        }
        int rest = end - keepFrom;
        System.arraycopy(a, keepFrom, a, 0, rest);
        c.in.position(rest);
    }

    /** Sends and waits (setup steps: not timed). */
    CompletableFuture<Response> call(Conn c, byte[] request) {
        CompletableFuture<Response> f = new CompletableFuture<>();
        send(c, request, (status, body, at, published) -> f.complete(new Response(status, body)));
        return f;
    }

    record Response(int status, byte[] body) {
        String text() {
            return body == null ? "" : new String(body, StandardCharsets.UTF_8);
        }
    }

    /** CPU time the selector threads have used so far, ms (-1 when the JVM cannot tell). */
    double cpuMs() {
        long sum = 0;
        for (Loop l : loops) {
            long ns = ManagementFactory.getThreadMXBean().getThreadCpuTime(l.thread.getId());
            if (ns < 0) {
                return -1;
            }
            sum += ns;
        }
        return sum / 1e6;
    }

    /** One selector thread and the connections registered with it. */
    private final class Loop {
        private final Selector selector;
        private final Queue<Runnable> tasks = new ConcurrentLinkedQueue<>();
        private final Thread thread;

        Loop(String name) throws IOException {
            this.selector = Selector.open();
            this.thread = new Thread(this::loop, name);
            thread.setDaemon(true);
            thread.start();
        }

        void run(Runnable task) {
            tasks.add(task);
            selector.wakeup();
        }

        private void loop() {
            while (open) {
                try {
                    selector.select();
                    for (Runnable t; (t = tasks.poll()) != null; ) {
                        t.run();
                    }
                    Iterator<SelectionKey> it = selector.selectedKeys().iterator();
                    while (it.hasNext()) {
                        SelectionKey k = it.next();
                        it.remove();
                        Conn c = (Conn) k.attachment();
                        if (!k.isValid()) {
                            fail(c);
                            continue;
                        }
                        if (k.isWritable()) {
                            write(c);
                        }
                        if (k.isValid() && k.isReadable()) {
                            read(c);
                        }
                    }
                } catch (IOException | RuntimeException e) {
                    if (open) {
                        System.err.println("bench: client loop: " + e);
                    }
                }
            }
        }
    }

    private void write(Conn c) {
        try {
            c.channel.write(c.out);
            c.key.interestOps(c.out.hasRemaining() ? SelectionKey.OP_WRITE | SelectionKey.OP_READ
                    : SelectionKey.OP_READ);
        } catch (IOException e) {
            fail(c);
        }
    }

    private void read(Conn c) {
        try {
            while (true) {
                if (!c.in.hasRemaining()) {
                    ByteBuffer bigger = ByteBuffer.allocate(c.in.capacity() * 2);
                    c.in.flip();
                    bigger.put(c.in);
                    c.in = bigger;
                }
                int room = c.in.remaining();
                int n = c.channel.read(c.in);
                if (n < 0) {
                    fail(c);
                    return;
                }
                if (n < room) {
                    // The socket had less than there was room for: it is drained (no second read
                    // just to see 0); whatever arrives later selects the key again.
                    break;
                }
            }
        } catch (IOException e) {
            fail(c);
            return;
        }
        if (c.streaming != null) {
            scanStream(c);
            return;
        }
        int[] parsed = HttpResponses.complete(c.in.array(), c.in.position());
        if (parsed == null || c.pending == null) {
            return;
        }
        long at = System.nanoTime();
        int status = parsed[0];
        byte[] body = parsed[2] > parsed[1] ? java.util.Arrays.copyOfRange(c.in.array(), parsed[1], parsed[2]) : null;
        Done d = c.pending;
        c.pending = null;
        c.in.clear();
        c.key.interestOps(0);
        d.done(status, body, at, parsed[3] < 0 ? 0 : HttpResponses.publishedUs(c.in.array(), parsed[3]));
    }

    private void fail(Conn c) {
        Done d = c.pending;
        c.pending = null;
        try {
            c.channel.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        if (d != null) {
            d.done(-1, null, System.nanoTime(), 0);
        }
    }

    @Override
    public void close() throws IOException, InterruptedException {
        open = false;
        for (Loop l : loops) {
            l.selector.wakeup();
            l.thread.join(TimeUnit.SECONDS.toMillis(5));
        }
        synchronized (conns) {
            for (Conn c : conns) {
                c.channel.close();
            }
        }
        for (Loop l : loops) {
            l.selector.close();
        }
    }
}
