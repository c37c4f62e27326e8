package io.weft.southbound.gnmi;

import io.grpc.ManagedChannel;

/**
 * Opens the gRPC channel of one switch. {@link NettyChannels} dials TCP (plaintext or TLS); tests
 * and the benchmark open in-process channels to fake servers.
 */
@FunctionalInterface
public interface ChannelFactory {
    /** @throws Exception the channel cannot be built (e.g. unreadable certificate files) */
    ManagedChannel open(GnmiTarget target) throws Exception;
}
