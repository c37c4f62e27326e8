package io.weft.scheduler.job;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import io.weft.auth.Caller;
import io.weft.scheduler.job.JobViews.RespreadView;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestAttribute;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** The operator's fabric-wide re-spread of the multipath jobs (scope operator, as every fabric write). */
@RestController
@Tag(name = "fabric", description = "Operators: the fabric with reservations, maintenance drains")
class RespreadController {
    private final MultipathRespread respread;

    RespreadController(MultipathRespread respread) {
        this.respread = respread;
    }

    @PostMapping(path = "/v1/fabric/multipath/respread", produces = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Re-spread every multipath job's flows together",
            description = "Spreads the flows of every active job that allows multipath over weighted paths in one "
                    + "LP, with the other jobs' reservations as background, and applies the answer as one change "
                    + "(new slices and weights, one new version per affected agent) when it lowers the max link "
                    + "load; otherwise the placement stays and 'reason' says why. With dryRun nothing changes.")
    @ApiResponse(responseCode = "200", description = "what the re-spread did, or (dry run, or not better) would do")
    @StandbyWriteResponse
    RespreadView respread(@RequestAttribute(Caller.ATTRIBUTE) Caller caller,
                          @Parameter(description = "report what would change, change nothing")
                          @RequestParam(name = "dryRun", defaultValue = "false") boolean dryRun) {
        return respread.run(dryRun, caller.name());
    }
}
