package io.weft.scheduler.agent;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.jetty.JettyServerCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Puts {@link LongPollHandler} in front of the servlet context, so agent polls skip the servlet chain. */
@Configuration(proxyBeanMethods = false)
class LongPollFastPath {

    @Bean
    JettyServerCustomizer longPollInFront(ObjectProvider<LongPolls> polls) {
        return server -> server.insertHandler(new LongPollHandler(polls));
    }
}
