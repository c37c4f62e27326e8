package io.weft.scheduler.web;

import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.ServerConnector;
import org.springframework.boot.jetty.JettyServerCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Gives Jetty's listening socket a deep accept queue. Jetty asks the kernel for a backlog of 50 by
 * default: when thousands of NIC agents (re)connect at once, e.g. after a restart of this
 * service, the kernel then drops their SYNs and each one waits out TCP's 1 s, 3 s, 7 s
 * retransmission timers. The kernel caps the value at net.core.somaxconn.
 */
@Configuration(proxyBeanMethods = false)
class JettyAcceptQueue {
    static final int ACCEPT_QUEUE = 4096;

    @Bean
    JettyServerCustomizer deepAcceptQueue() {
        return server -> {
            for (Connector c : server.getConnectors()) {
                if (c instanceof ServerConnector sc) {
                    sc.setAcceptQueueSize(ACCEPT_QUEUE);
                }
            }
        };
    }
}
