package io.weft.telemetry;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ApplicationListener;
import org.springframework.stereotype.Component;

/**
 * One stable line when the service is ready, for scripts that wait on the log ({@code ./weft demo}):
 * {@code telemetry-collector: serving on http://127.0.0.1:<port>}.
 */
@Component
class ReadyLog implements ApplicationListener<ApplicationReadyEvent> {
    private static final Logger LOG = LoggerFactory.getLogger(ReadyLog.class);

    @Override
    public void onApplicationEvent(ApplicationReadyEvent event) {
        int port = event.getApplicationContext() instanceof WebServerApplicationContext web
                ? web.getWebServer().getPort() : -1;
        LOG.info("telemetry-collector: serving on http://127.0.0.1:{}", port);
    }
}
