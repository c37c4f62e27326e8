package io.weft.scheduler.job;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import io.swagger.v3.oas.annotations.headers.Header;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.weft.scheduler.web.Problems;
import org.springframework.http.ProblemDetail;

/**
 * The 503 every write of the single writer shares (a standby, or no fabric yet): springdoc reads this
 * {@link ApiResponse} through the meta-annotation.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@ApiResponse(responseCode = "503",
        description = Problems.STANDBY_WRITE,
        headers = @Header(name = "Retry-After", description = "seconds to wait before retrying",
                schema = @Schema(type = "integer")),
        content = @Content(mediaType = "application/problem+json",
                schema = @Schema(implementation = ProblemDetail.class)))
@interface StandbyWriteResponse {
}
