package io.weft.scheduler.web;

import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.ServerConnector;
import org.springframework.boot.jetty.JettyServerCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Jetty settings: ten thousand NIC agents holding a connection each, and errors as problem+json. */
@Configuration(proxyBeanMethods = false)
class JettyTuning {
    static final int ACCEPT_QUEUE = 4096;

    /**
     * A deep accept queue. Jetty asks the kernel for a backlog of 50 by default: when thousands of
     * NIC agents (re)connect at once, e.g. after a restart of this service, the kernel then drops
     * their SYNs and each one waits out TCP's 1 s, 3 s, 7 s retransmission timers. The kernel caps
     * the value at net.core.somaxconn.
     */
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

    /**
     * No per-connection header cache. Jetty builds one for every connection that carries a second
     * request, ~100 KB of tries each: with 10,000 agents re-polling on their kept-alive
     * connections that was over 1 GB of heap (measured with `./weft bench api`, whose second
     * round ran the service out of a 640 MB heap). Agents send four short headers; parsing
     * them without the cache costs next to nothing.
     */
    @Bean
    JettyServerCustomizer noHeaderCache() {
        return server -> {
            for (Connector c : server.getConnectors()) {
                HttpConnectionFactory http = c.getConnectionFactory(HttpConnectionFactory.class);
                if (http != null) {
                    http.getHttpConfiguration().setHeaderCacheSize(0);
                }
            }
        };
    }

    /** Jetty's own error answers (before Spring MVC runs) in the API's problem+json shape. */
    @Bean
    JettyServerCustomizer problemJsonErrors() {
        return server -> server.setErrorHandler(new ProblemJsonErrorHandler());
    }
}
