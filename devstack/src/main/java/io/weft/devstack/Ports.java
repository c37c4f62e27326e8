package io.weft.devstack;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;

/** Loopback port helpers: every devstack service listens on 127.0.0.1 only. */
final class Ports {
    static final String LOOPBACK = "127.0.0.1";

    private Ports() {
    }

    /**
     * A port that was free a moment ago. Services whose peers must know the port before start (the
     * KRaft controller quorum) cannot bind port 0, so there is a small race, acceptable for tests.
     */
    static int free() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(LOOPBACK))) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new DevstackException("cannot find a free loopback port: " + e.getMessage(), e);
        }
    }

    /** Returns {@code port}, or a free one when it is 0; fails naming the service when it is taken. */
    static int claim(String service, int port) {
        if (port == 0) {
            return free();
        }
        if (port < 0 || port > 65535) {
            throw new DevstackException(service + " port: must be 0..65535, got " + port);
        }
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(InetAddress.getByName(LOOPBACK), port));
            return port;
        } catch (IOException e) {
            throw new DevstackException(service + " port " + port + " on " + LOOPBACK
                    + " is already in use (is another devstack running?); choose another port");
        }
    }
}
