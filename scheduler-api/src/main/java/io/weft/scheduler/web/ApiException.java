package io.weft.scheduler.web;

import org.springframework.http.HttpStatus;

/**
 * A request the service refuses, with the HTTP status, a one-line reason and the request field
 * (JSON path such as {@code flows[2].dst}, a parameter or header name) that caused it, if any.
 * Thrown anywhere below the controllers; {@link ProblemAdvice} turns it into problem+json.
 */
public class ApiException extends RuntimeException {
    private final HttpStatus status;
    private final String field;
    /** Seconds the client should wait before retrying (a Retry-After header), or null. */
    private final Integer retryAfterSeconds;

    public ApiException(HttpStatus status, String field, String detail) {
        this(status, field, detail, null);
    }

    public ApiException(HttpStatus status, String field, String detail, Integer retryAfterSeconds) {
        super(detail);
        this.status = status;
        this.field = field;
        this.retryAfterSeconds = retryAfterSeconds;
    }

    public static ApiException badRequest(String field, String detail) {
        return new ApiException(HttpStatus.BAD_REQUEST, field, detail);
    }

    public static ApiException notFound(String field, String detail) {
        return new ApiException(HttpStatus.NOT_FOUND, field, detail);
    }

    public static ApiException conflict(String field, String detail) {
        return new ApiException(HttpStatus.CONFLICT, field, detail);
    }

    public static ApiException unprocessable(String field, String detail) {
        return new ApiException(HttpStatus.UNPROCESSABLE_CONTENT, field, detail);
    }

    public HttpStatus status() {
        return status;
    }

    /** Seconds to wait before a retry (sent as Retry-After), or null when a retry would not help. */
    public Integer retryAfterSeconds() {
        return retryAfterSeconds;
    }

    /** The culprit request field, or null when the request as a whole is refused. */
    public String field() {
        return field;
    }
}
