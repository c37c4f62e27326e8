package io.weft.scheduler.web;

import java.io.IOException;
import java.util.Set;
import java.util.TreeSet;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.servlet.mvc.method.RequestMappingInfo;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;
import org.springframework.web.util.ServletRequestPathUtils;

/**
 * TRACE is a 405 with an Allow header, like any method the API does not declare. The servlet
 * default answers TRACE by echoing the request, Authorization header included (and Spring calls
 * that default even after dispatching TRACE to its handlers), so it is answered here, first.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE)
class TraceFilter extends OncePerRequestFilter {
    private final RequestMappingHandlerMapping mappings;

    TraceFilter(@Qualifier("requestMappingHandlerMapping") RequestMappingHandlerMapping mappings) {
        this.mappings = mappings;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (!"TRACE".equals(request.getMethod())) {
            chain.doFilter(request, response);
            return;
        }
        Set<String> allowed = allowedMethods(request);
        if (allowed.isEmpty()) {
            Problems.write(response, HttpStatus.NOT_FOUND, null, "no such resource");
            return;
        }
        response.setHeader("Allow", String.join(", ", allowed));
        Problems.write(response, HttpStatus.METHOD_NOT_ALLOWED, null, "TRACE is not supported");
    }

    /** The methods the controllers declare for this request's path. */
    private Set<String> allowedMethods(HttpServletRequest request) {
        if (!ServletRequestPathUtils.hasParsedRequestPath(request)) {
            ServletRequestPathUtils.parseAndCache(request);
        }
        Set<String> allowed = new TreeSet<>();
        for (RequestMappingInfo info : mappings.getHandlerMethods().keySet()) {
            if (info.getPathPatternsCondition() != null
                    && info.getPathPatternsCondition().getMatchingCondition(request) != null) {
                info.getMethodsCondition().getMethods().stream().map(RequestMethod::name).forEach(allowed::add);
            }
        }
        return allowed;
    }
}
