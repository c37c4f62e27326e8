package io.weft.scheduler.fabric;

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
 * The failure answers drain and undrain share (both are forwarded to the controller, which owns link
 * states): springdoc reads these {@link ApiResponse}s through the meta-annotation.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@ApiResponse(responseCode = "404", description = "no such link",
        content = @Content(mediaType = "application/problem+json",
                schema = @Schema(implementation = ProblemDetail.class)))
@ApiResponse(responseCode = "502",
        description = "the controller (the owner of link states) refused or did not answer",
        content = @Content(mediaType = "application/problem+json",
                schema = @Schema(implementation = ProblemDetail.class)))
@ApiResponse(responseCode = "503",
        description = Problems.DRAIN_UNAVAILABLE,
        headers = @Header(name = "Retry-After", description = "seconds to wait before retrying; sent by a standby "
                + "only (a missing controller or feed is configuration: a retry does not help)",
                schema = @Schema(type = "integer")),
        content = @Content(mediaType = "application/problem+json",
                schema = @Schema(implementation = ProblemDetail.class)))
@ApiResponse(responseCode = "504",
        description = "the controller took the change but its snapshot did not arrive in time; flows move when it "
                + "does",
        content = @Content(mediaType = "application/problem+json",
                schema = @Schema(implementation = ProblemDetail.class)))
@interface DrainFailureResponses {
}
