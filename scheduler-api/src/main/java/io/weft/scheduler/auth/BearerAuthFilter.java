package io.weft.scheduler.auth;

import java.io.IOException;

import io.weft.scheduler.web.Problems;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Bearer-token authentication and the scope check of {@link AccessPolicy}: 401 without a valid
 * token, 403 when the token's scope or NIC binding does not cover the request. Both as
 * problem+json naming the {@code Authorization} header. Token values are never logged or echoed.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 20)
class BearerAuthFilter extends OncePerRequestFilter {
    private static final String PREFIX = "Bearer ";

    private final TokenStore tokens;

    BearerAuthFilter(TokenStore tokens) {
        this.tokens = tokens;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String path = request.getRequestURI().substring(request.getContextPath().length());
        if (!AccessPolicy.needsToken(path)) {
            chain.doFilter(request, response);
            return;
        }
        String header = request.getHeader("Authorization");
        if (header == null || !header.regionMatches(true, 0, PREFIX, 0, PREFIX.length())) {
            response.setHeader("WWW-Authenticate", "Bearer");
            Problems.write(response, HttpStatus.UNAUTHORIZED, "Authorization", "a bearer token is required");
            return;
        }
        Caller caller = tokens.lookup(header.substring(PREFIX.length()).trim()).orElse(null);
        if (caller == null) {
            response.setHeader("WWW-Authenticate", "Bearer error=\"invalid_token\"");
            Problems.write(response, HttpStatus.UNAUTHORIZED, "Authorization", "unknown bearer token");
            return;
        }
        String denied = AccessPolicy.deny(request.getMethod(), path, caller);
        if (denied != null) {
            Problems.write(response, HttpStatus.FORBIDDEN, "Authorization", denied);
            return;
        }
        request.setAttribute(Caller.ATTRIBUTE, caller);
        chain.doFilter(request, response);
    }

    /** Async re-dispatches (long-poll completion) were authenticated on the way in. */
    @Override
    protected boolean shouldNotFilterAsyncDispatch() {
        return true;
    }
}
