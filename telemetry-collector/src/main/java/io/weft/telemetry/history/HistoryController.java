package io.weft.telemetry.history;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import io.weft.contracts.HotspotEvent;
import io.weft.telemetry.config.HistoryProperties;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The history over REST:
 * <ul>
 *   <li>{@code GET /v1/links/{id}/series?from&to[&limit]}: 1-second rollups of both directions, oldest
 *       first; {@code from} defaults to one hour before {@code to}, {@code to} to now;</li>
 *   <li>{@code GET /v1/hotspots?from&to[&linkId][&kind][&limit]}: hotspot events in the contract's
 *       shape, newest first; {@code from} defaults to 24 hours before {@code to}, {@code to} to now.</li>
 * </ul>
 * Times are RFC 3339; the window is [from, to) by sample time. A bad parameter is a 400
 * application/problem+json naming it.
 */
@RestController
class HistoryController {
    private static final Pattern ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._:/-]{0,127}");

    private final HistoryRepository repository;
    private final HistoryProperties history;
    private final Clock clock;

    HistoryController(HistoryRepository repository, HistoryProperties history) {
        this.repository = repository;
        this.history = history;
        this.clock = Clock.systemUTC();
    }

    @GetMapping("/v1/links/{id}/series")
    Map<String, Object> series(@PathVariable("id") String linkId,
                               @RequestParam(name = "from", required = false) String from,
                               @RequestParam(name = "to", required = false) String to,
                               @RequestParam(name = "limit", required = false) String limit) {
        id("id", linkId);
        Window w = window(from, to, Duration.ofHours(1));
        List<Map<String, Object>> points = repository.series(linkId, w.from, w.to, limit(limit));
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("linkId", linkId);
        out.put("from", w.from.toString());
        out.put("to", w.to.toString());
        out.put("points", points);
        return out;
    }

    @GetMapping("/v1/hotspots")
    Map<String, Object> hotspots(@RequestParam(name = "from", required = false) String from,
                                 @RequestParam(name = "to", required = false) String to,
                                 @RequestParam(name = "linkId", required = false) String linkId,
                                 @RequestParam(name = "kind", required = false) String kind,
                                 @RequestParam(name = "limit", required = false) String limit) {
        if (linkId != null) {
            id("linkId", linkId);
        }
        if (kind != null) {
            try {
                HotspotEvent.Kind.fromJson(kind);
            } catch (IllegalArgumentException e) {
                throw new BadParameter("kind", "must be one of hotspot-start, hotspot-end, link-down, link-up");
            }
        }
        Window w = window(from, to, Duration.ofHours(24));
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("from", w.from.toString());
        out.put("to", w.to.toString());
        out.put("events", repository.hotspots(w.from, w.to, linkId, kind, limit(limit)));
        return out;
    }

    private record Window(Instant from, Instant to) {
    }

    private Window window(String from, String to, Duration defaultSpan) {
        Instant t = to == null ? clock.instant() : time("to", to);
        Instant f = from == null ? t.minus(defaultSpan) : time("from", from);
        if (!f.isBefore(t)) {
            throw new BadParameter("from", "must be before to (" + f + " >= " + t + ")");
        }
        return new Window(f, t);
    }

    private static Instant time(String name, String value) {
        try {
            return OffsetDateTime.parse(value).toInstant();
        } catch (DateTimeParseException e) {
            throw new BadParameter(name, "must be an RFC 3339 time such as 2026-11-21T12:00:00Z (got \"" + value
                    + "\")");
        }
    }

    private int limit(String limit) {
        if (limit == null) {
            return history.maxQueryRows();
        }
        try {
            int n = Integer.parseInt(limit);
            if (n >= 1 && n <= history.maxQueryRows()) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new BadParameter("limit", "must be an integer in 1.." + history.maxQueryRows());
    }

    private static void id(String name, String value) {
        if (!ID.matcher(value).matches()) {
            throw new BadParameter(name, "must be a fabric id (letters, digits, . _ : / -; at most 128)");
        }
    }

    @ExceptionHandler(BadParameter.class)
    ResponseEntity<ProblemDetail> badParameter(BadParameter e) {
        ProblemDetail p = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, e.getMessage());
        p.setTitle("Bad request parameter");
        p.setProperty("parameter", e.parameter);
        return ResponseEntity.badRequest().body(p);
    }

    /** A request parameter that cannot be used; the message names it. */
    static final class BadParameter extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final String parameter;

        BadParameter(String parameter, String why) {
            super(parameter + ": " + why);
            this.parameter = parameter;
        }
    }
}
