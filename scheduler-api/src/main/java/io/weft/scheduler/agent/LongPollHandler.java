package io.weft.scheduler.agent;

import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.springframework.beans.factory.ObjectProvider;

/**
 * A Jetty core handler in front of the servlet context: agent path polls that {@link LongPolls}
 * takes never enter the servlet chain; every other request passes through untouched. The
 * {@link LongPolls} bean is looked up on the first request, because Jetty is configured before
 * the application's beans (database, fabric) exist.
 */
final class LongPollHandler extends Handler.Wrapper {
    private final ObjectProvider<LongPolls> provider;
    private volatile LongPolls polls;

    LongPollHandler(ObjectProvider<LongPolls> provider) {
        this.provider = provider;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        LongPolls p = polls;
        if (p == null) {
            p = provider.getObject();
            polls = p;
        }
        return p.take(request, response, callback) || super.handle(request, response, callback);
    }
}
