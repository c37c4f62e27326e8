package io.weft.scheduler.web;

import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;

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
 * A query parameter given with an empty value ({@code ?page=}) is a 400 naming it. Every query
 * parameter of the API is a number, an enum or a non-empty id, so an empty value is never valid;
 * Spring would quietly take it for "absent" and use the default, answering a request its own
 * contract calls malformed. Reads the raw query string: asking the servlet for parameters would
 * consume a form body.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 30)
class EmptyQueryValueFilter extends OncePerRequestFilter {
    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String empty = firstEmpty(request.getQueryString());
        if (empty != null) {
            Problems.write(response, HttpStatus.BAD_REQUEST, empty, "a value is required when the parameter is given");
            return;
        }
        chain.doFilter(request, response);
    }

    /** The name of the first parameter with an empty value, or null. */
    static String firstEmpty(String query) {
        if (query == null || query.isEmpty()) {
            return null;
        }
        for (String pair : query.split("&", -1)) {
            int eq = pair.indexOf('=');
            String value = eq < 0 ? "" : pair.substring(eq + 1);
            if (value.isEmpty()) {
                String name = eq < 0 ? pair : pair.substring(0, eq);
                try {
                    return URLDecoder.decode(name, StandardCharsets.UTF_8);
                } catch (IllegalArgumentException e) {
                    return name;
                }
            }
        }
        return null;
    }
}
