package io.weft.scheduler.fabric;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.headers.Header;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import io.weft.auth.Caller;
import io.weft.fabric.FabricJson;
import io.weft.placement.Quality;
import io.weft.plan.SnapshotJson;
import io.weft.scheduler.web.Ids;
import io.weft.scheduler.web.Problems;
import jakarta.validation.constraints.Pattern;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestAttribute;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/** Operator view of the fabric and maintenance drains (forwarded to the controller, the owner of link states). */
@RestController
@Tag(name = "fabric", description = "Operators: the fabric with reservations, maintenance drains")
class OperatorFabricController {
    private final Placement placement;
    private final FabricService service;
    private final ObjectMapper json;

    OperatorFabricController(Placement placement, FabricService service, ObjectMapper json) {
        this.placement = placement;
        this.service = service;
        this.json = json;
    }

    /**
     * One link direction with reserved demand.
     *
     * @param elephants flows on this direction counted as elephants by the engine
     */
    record Reservation(String link, String from, String to, double reservedGbps, double capacityGbps,
                       double utilisation, int elephants) {
    }

    record FabricState(String fabricId, long version, JsonNode fabric, JsonNode plan, Map<String, String> linkStates,
                       List<Reservation> reservations, Quality quality) {
    }

    /** The snapshot the scheduler places on (core's Jackson 2 trees go over as text) plus reservations. */
    @GetMapping(path = "/v1/fabric", produces = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "The fabric snapshot in use, link states and per-direction reservations")
    @ApiResponse(responseCode = "200", description = "OK")
    @ApiResponse(responseCode = "503",
            description = Problems.STANDBY_READ,
            headers = @Header(name = "Retry-After", description = "seconds to wait before retrying",
                    schema = @Schema(type = "integer")),
            content = @Content(mediaType = "application/problem+json",
                    schema = @Schema(implementation = ProblemDetail.class)))
    FabricState fabric() {
        FabricView view = placement.view();
        // The writer answers from its engine; a standby from PostgreSQL, the state the writer committed.
        Reservations reserved = placement.writer() ? placement.reservations() : service.reservationsFromDatabase(view);
        List<Reservation> res = new ArrayList<>();
        for (Reservations.Reserved r : reserved.directions()) {
            res.add(new Reservation(r.link(), r.from(), r.to(), r.reservedGbps(), r.capacityGbps(),
                    r.reservedGbps() / r.capacityGbps(), r.elephants()));
        }
        Map<String, String> states = new LinkedHashMap<>();
        view.fabric().links().forEach(l -> states.put(l.id(),
                view.effective().get(l.id()).json()));
        return new FabricState(view.fabric().id(), view.version(),
                json.readTree(FabricJson.toTree(view.fabric()).toString()),
                json.readTree(SnapshotJson.planTree(view.plan()).toString()),
                states, res, reserved.quality());
    }

    @PostMapping(path = "/v1/fabric/links/{id}/drain", produces = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Drain a link: flows leave it, nothing new uses it",
            description = "Forwarded to the controller, which owns link states; answers once the controller's "
                    + "snapshot carrying the drain (version) has been applied here, with the flows it moved.")
    @ApiResponse(responseCode = "200", description = "the link is drained; what moved")
    @DrainFailureResponses
    DrainOutcome drain(@RequestAttribute(Caller.ATTRIBUTE) Caller caller,
            @PathVariable @Pattern(regexp = Ids.PATTERN, message = Ids.MESSAGE) String id) {
        return service.setDrained(id, true, caller.name());
    }

    @PostMapping(path = "/v1/fabric/links/{id}/undrain", produces = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Put a drained link back in service",
            description = "Forwarded to the controller like a drain; flows stay where they are until they need"
                    + " to move.")
    @ApiResponse(responseCode = "200", description = "the link is back in service")
    @DrainFailureResponses
    DrainOutcome undrain(@RequestAttribute(Caller.ATTRIBUTE) Caller caller,
            @PathVariable @Pattern(regexp = Ids.PATTERN, message = Ids.MESSAGE) String id) {
        return service.setDrained(id, false, caller.name());
    }
}
