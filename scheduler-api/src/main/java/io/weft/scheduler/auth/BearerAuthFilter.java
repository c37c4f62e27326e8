package io.weft.scheduler.auth;

import java.io.IOException;

import io.weft.auth.BearerCheck;
import io.weft.auth.Caller;
import io.weft.auth.TokenStore;
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
 * The shared bearer check ({@link BearerCheck}) with the scope rules of {@link AccessPolicy}: 401
 * without a valid token, 403 when the token's scope or NIC binding does not cover the request. Both
 * as problem+json naming the {@code Authorization} header. Token values are never logged or echoed.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 20)
class BearerAuthFilter extends OncePerRequestFilter {
    private final BearerCheck check;

    BearerAuthFilter(TokenStore tokens) {
        this.check = new BearerCheck(tokens, AccessPolicy::deny);
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String path = request.getRequestURI().substring(request.getContextPath().length());
        if (!AccessPolicy.needsToken(path)) {
            chain.doFilter(request, response);
            return;
        }
        BearerCheck.Decision d = check.check(request.getMethod(), path, request.getHeader("Authorization"));
        if (!d.allowed()) {
            if (d.wwwAuthenticate() != null) {
                response.setHeader("WWW-Authenticate", d.wwwAuthenticate());
            }
            Problems.write(response, HttpStatus.valueOf(d.status()), "Authorization", d.message());
            return;
        }
        request.setAttribute(Caller.ATTRIBUTE, d.caller());
        chain.doFilter(request, response);
    }

    /** Async re-dispatches (long-poll completion) were authenticated on the way in. */
    @Override
    protected boolean shouldNotFilterAsyncDispatch() {
        return true;
    }
}
