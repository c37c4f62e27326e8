package io.weft.scheduler.web;

import java.io.IOException;
import java.net.URI;

import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * Builds RFC 9457 problem details the same way for controllers (via {@link ProblemAdvice}) and for
 * servlet filters, which run before Spring MVC and must write the body themselves.
 */
public final class Problems {
    /** Extra member naming the request field at fault; clients key their error display on it. */
    public static final String FIELD = "field";
    public static final MediaType PROBLEM_JSON = MediaType.APPLICATION_PROBLEM_JSON;
    /** The OpenAPI description of a write refused by a standby replica (503 with Retry-After). */
    public static final String STANDBY_WRITE = "this replica is a standby (another holds the writer lease, or is "
            + "taking it over), or there is no fabric yet: retry, here or at another replica";
    /** The two reasons a drain or undrain is refused with 503: only the first sends Retry-After. */
    public static final String DRAIN_UNAVAILABLE = "either this replica is a standby (another holds the writer "
            + "lease, or is taking it over) or there is no fabric yet: retry, here or at another replica "
            + "(Retry-After); or no controller or no weft.fabric feed is configured here, so a drain cannot take "
            + "effect: fix the configuration (no Retry-After)";
    /** The same for a read of the fabric (any replica answers it once it follows a fabric). */
    public static final String STANDBY_READ = "there is no fabric yet (or this replica lost the writer lease "
            + "while answering): retry";

    private static final ObjectMapper MAPPER = JsonMapper.builder().build();

    private Problems() {
    }

    public static ProblemDetail of(HttpStatusCode status, String field, String detail) {
        ProblemDetail p = ProblemDetail.forStatusAndDetail(status, detail);
        p.setType(URI.create("about:blank"));
        if (field != null) {
            p.setProperty(FIELD, field);
        }
        return p;
    }

    /** Writes a problem straight to the servlet response (filters, async timeouts). */
    public static void write(HttpServletResponse response, HttpStatusCode status, String field, String detail)
            throws IOException {
        ProblemDetail p = of(status, field, detail);
        response.setStatus(status.value());
        response.setContentType(PROBLEM_JSON.toString());
        var body = MAPPER.createObjectNode();
        body.put("type", "about:blank");
        body.put("title", p.getTitle());
        body.put("status", status.value());
        body.put("detail", detail);
        if (field != null) {
            body.put(FIELD, field);
        }
        response.getOutputStream().write(MAPPER.writeValueAsBytes(body));
    }
}
