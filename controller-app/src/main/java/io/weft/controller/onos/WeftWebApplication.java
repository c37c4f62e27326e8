package io.weft.controller.onos;

import java.util.Set;
import javax.ws.rs.core.Application;

/** The JAX-RS application ONOS's web server runs under {@code /onos/weft} (src/main/webapp/WEB-INF/web.xml). */
public class WeftWebApplication extends Application {
    @Override
    public Set<Class<?>> getClasses() {
        return Set.of(WeftWebResource.class);
    }
}
