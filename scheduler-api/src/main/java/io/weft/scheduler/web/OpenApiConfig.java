package io.weft.scheduler.web;

import java.util.List;

import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.info.License;
import io.swagger.v3.oas.models.security.SecurityRequirement;
import io.swagger.v3.oas.models.security.SecurityScheme;
import io.swagger.v3.oas.models.servers.Server;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Document-level parts of the served OpenAPI (the operations come from the controllers). The
 * server URL is fixed and relative so the served document does not depend on the port, and can
 * be compared with the committed contracts/openapi/scheduler-api.yaml.
 */
@Configuration(proxyBeanMethods = false)
class OpenApiConfig {
    static final String BEARER = "bearer";

    @Bean
    OpenAPI weftOpenApi() {
        return new OpenAPI()
                .info(new Info().title("Weft scheduler API").version("v1")
                        .description("Jobs in, paths out: AI job schedulers submit jobs, NIC agents long-poll their "
                                + "EV profiles and report flows, operators watch the fabric and drain links. "
                                + "Errors are RFC 9457 problem+json with a 'field' member naming the culprit.")
                        .license(new License().name("Apache-2.0")))
                .servers(List.of(new Server().url("/")))
                .components(new Components().addSecuritySchemes(BEARER, new SecurityScheme()
                        .type(SecurityScheme.Type.HTTP).scheme("bearer")
                        .description("Scopes: scheduler (jobs), agent (bound to NIC ids), operator (read all, drain)")))
                .addSecurityItem(new SecurityRequirement().addList(BEARER));
    }
}
