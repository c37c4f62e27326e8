package io.weft.southbound.gnmi;

import java.io.File;
import java.util.concurrent.TimeUnit;

import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslContextBuilder;

/** TCP channels to real switches: plaintext by default, TLS (optionally mutual) when the target asks for it. */
public final class NettyChannels implements ChannelFactory {
    /** gNMI Get answers for a large switch can be several MB (every route of every VRF). */
    static final int MAX_INBOUND_BYTES = 64 * 1024 * 1024;

    @Override
    public ManagedChannel open(GnmiTarget target) throws Exception {
        NettyChannelBuilder b = NettyChannelBuilder.forAddress(target.address(), target.port())
                .maxInboundMessageSize(MAX_INBOUND_BYTES)
                // Keepalive notices a dead switch on an idle connection before the next push needs it.
                .keepAliveTime(30, TimeUnit.SECONDS)
                .keepAliveTimeout(10, TimeUnit.SECONDS);
        if (!target.tls()) {
            b.usePlaintext();
        } else {
            SslContextBuilder ssl = GrpcSslContexts.forClient();
            if (target.caFile() != null) {
                ssl.trustManager(new File(target.caFile()));
            }
            if (target.certFile() != null) {
                ssl.keyManager(new File(target.certFile()), new File(target.keyFile()));
            }
            b.sslContext(ssl.build()).useTransportSecurity();
        }
        return b.build();
    }
}
