package io.weft.scheduler.agent;

import io.micrometer.observation.ObservationPredicate;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.server.observation.ServerRequestObservationContext;

/**
 * Keeps agent long-polls out of the {@code http.server.requests} observation. A long-poll's
 * duration is how long the agent waited for news, not how long the service took: ten thousand
 * of them would swamp the request-latency histogram with 60 s waits, and starting and stopping
 * an observation is a large share of the CPU a woken poll costs. Polls without {@code wait}
 * (plain pulls) are still observed; the waiting ones are counted by the
 * {@code weft.longpoll.waiters} gauge.
 */
@Configuration(proxyBeanMethods = false)
class LongPollObservations {

    @Bean
    ObservationPredicate skipAgentLongPolls() {
        return (name, context) -> !(context instanceof ServerRequestObservationContext c && isLongPoll(c.getCarrier()));
    }

    /** A GET of an agent's paths that may wait (wait > 0). */
    static boolean isLongPoll(HttpServletRequest request) {
        if (request == null || !"GET".equals(request.getMethod())) {
            return false;
        }
        String path = request.getRequestURI().substring(request.getContextPath().length());
        if (LongPolls.nicOf(path) == null) {
            return false;
        }
        int wait = LongPolls.parseWait(request.getParameter("wait"));
        return wait > 0;
    }
}
