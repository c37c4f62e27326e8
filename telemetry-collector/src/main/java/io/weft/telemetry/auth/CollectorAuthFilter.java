package io.weft.telemetry.auth;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import io.weft.auth.BearerCheck;
import io.weft.auth.Caller;
import io.weft.auth.ReadAccess;
import io.weft.auth.Scope;
import io.weft.auth.TokenStore;
import io.weft.telemetry.config.TelemetryAuthProperties;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * The collector's door (contracts/auth.md): under {@code /v1/}, reads need a scheduler or operator
 * token unless reads are {@code open}; anything else needs an operator token (the collector has no
 * state-changing endpoint today, so a future one is closed by default). Health and metrics
 * ({@code /actuator/**}) stay open. Refusals are problem+json naming the token, never its value.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 20)
class CollectorAuthFilter extends OncePerRequestFilter {
    private static final Logger LOG = LoggerFactory.getLogger(CollectorAuthFilter.class);

    private final BearerCheck check;
    private final ReadAccess reads;

    CollectorAuthFilter(TelemetryAuthProperties props) {
        String file = props.tokensFile();
        TokenStore tokens = TokenStore.of(props.tokens(), file == null || file.isBlank() ? null : Path.of(file));
        this.check = new BearerCheck(tokens, CollectorAuthFilter::deny);
        this.reads = ReadAccess.parse(props.reads());
        LOG.info("REST reads {}, {} bearer tokens", reads.jsonName(), tokens.size());
    }

    static String deny(String method, String path, Caller caller) {
        if (BearerCheck.isRead(method)) {
            return caller.scope() == Scope.AGENT ? BearerCheck.refuse(caller, "scheduler or operator") : null;
        }
        return caller.scope() == Scope.OPERATOR ? null : BearerCheck.refuse(caller, "operator");
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String path = request.getRequestURI().substring(request.getContextPath().length());
        if (!path.startsWith("/v1/") || (reads == ReadAccess.OPEN && BearerCheck.isRead(request.getMethod()))) {
            chain.doFilter(request, response);
            return;
        }
        BearerCheck.Decision d = check.check(request.getMethod(), path, request.getHeader("Authorization"));
        if (d.allowed()) {
            request.setAttribute(Caller.ATTRIBUTE, d.caller());
            chain.doFilter(request, response);
            return;
        }
        if (d.wwwAuthenticate() != null) {
            response.setHeader("WWW-Authenticate", d.wwwAuthenticate());
        }
        response.setStatus(d.status());
        response.setContentType("application/problem+json");
        String body = "{\"type\":\"about:blank\",\"title\":\"" + (d.status() == 401 ? "Unauthorized" : "Forbidden")
                + "\",\"status\":" + d.status() + ",\"detail\":\"" + escape(d.message()) + "\",\"instance\":\""
                + escape(path) + "\"}";
        response.getOutputStream().write(body.getBytes(StandardCharsets.UTF_8));
    }

    private static String escape(String s) {
        StringBuilder b = new StringBuilder(s.length() + 8);
        for (char c : s.toCharArray()) {
            if (c == '"' || c == '\\') {
                b.append('\\').append(c);
            } else if (c < 0x20) {
                b.append(String.format("\\u%04x", (int) c));
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }
}
