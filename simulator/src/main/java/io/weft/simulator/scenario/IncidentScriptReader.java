package io.weft.simulator.scenario;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Reads a live-mode incident file strictly: unknown fields, wrong types, a step with a field of
 * another action, steps out of time order are refused with one line {@code <file>: <field>: <problem>}.
 * Links are checked against the fabric when the step runs (the fabric is the controller's, known
 * only then); the job body is checked by scheduler-api, whose 400 names the field.
 *
 * <p>Not merged with {@link ScenarioReader}: a scenario is a closed batch run (its own fabric, flows
 * and link events, all checked before anything runs), an incident is a timed script of steps against
 * a live fabric and scheduler-api. What they do alike, reading the file and its versioned top level,
 * is {@link Fields#readFile} and {@link Fields#topLevel}.
 */
public final class IncidentScriptReader {
    public static final int SCHEMA_VERSION = 1;
    /** The default incident, on the classpath. */
    public static final String DEFAULT = "io/weft/simulator/live/demo-incident.json";

    private static final Set<String> TOP = Set.of("$schema", "schemaVersion", "settleS", "steps");
    private static final Set<String> STEP = Set.of("atS", "action", "job", "idempotencyKey", "link", "from", "gbps",
            "factor");

    private IncidentScriptReader() {
    }

    public static IncidentScript read(Path file) throws ScenarioException {
        String text = Fields.readFile(file);
        try {
            return parse(text);
        } catch (ScenarioException e) {
            throw new ScenarioException(file + ": " + e.getMessage());
        }
    }

    /** The built-in demo incident. */
    public static IncidentScript defaultScript() {
        try (InputStream in = IncidentScriptReader.class.getClassLoader().getResourceAsStream(DEFAULT)) {
            if (in == null) {
                throw new IllegalStateException("no " + DEFAULT + " on the classpath");
            }
            return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException | ScenarioException e) {
            throw new IllegalStateException(DEFAULT + ": " + e.getMessage(), e);
        }
    }

    public static IncidentScript parse(String text) throws ScenarioException {
        Fields top = Fields.topLevel(text, TOP, SCHEMA_VERSION);
        double settle = top.positive("settleS", false, 30);
        JsonNode steps = top.array("steps", true);
        List<IncidentScript.Step> out = new ArrayList<>();
        double last = 0;
        for (int i = 0; i < steps.size(); i++) {
            String path = "steps[" + i + "]";
            Fields s = Fields.object(steps.get(i), path, STEP);
            double at = s.positive("atS", true, Double.NaN);
            if (Double.isNaN(at)) {
                throw new ScenarioException(s.path("atS") + ": missing (required)");
            }
            if (at < last) {
                throw new ScenarioException(s.path("atS") + ": " + at + " is before the previous step's " + last);
            }
            last = at;
            String a = s.string("action");
            IncidentScript.Action action;
            try {
                action = IncidentScript.Action.valueOf(a.toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new ScenarioException(s.path("action") + ": \"" + a
                        + "\" is not one of job, degrade, throttle, fail, restore");
            }
            out.add(step(s, at, action));
        }
        return new IncidentScript(settle, List.copyOf(out));
    }

    private static IncidentScript.Step step(Fields s, double at, IncidentScript.Action action)
            throws ScenarioException {
        switch (action) {
            case JOB: {
                only(s, "atS", "action", "job", "idempotencyKey");
                JsonNode job = s.raw("job");
                if (job == null || !job.isObject()) {
                    throw new ScenarioException(s.path("job") + ": must be an object (the body of POST /v1/jobs)");
                }
                JsonNode endpoints = job.get("endpoints");
                if (endpoints != null && endpoints.isObject()) {
                    // {"spread": n}: n NICs of the fabric, taken from its leaves in turn (see IncidentScript).
                    Fields spread = Fields.object(endpoints, s.path("job") + ".endpoints", Set.of("spread"));
                    spread.integer("spread", 2, 100_000);
                }
                return new IncidentScript.Step(at, action, (ObjectNode) job, s.string("idempotencyKey", null), null,
                        null, null, null);
            }
            case DEGRADE: {
                only(s, "atS", "action", "link", "from", "gbps");
                String link = s.string("link", IncidentScript.AUTO);
                if (link.equals(IncidentScript.AUTO) && s.has("from")) {
                    throw new ScenarioException(s.path("from") + ": only with a named link (auto picks the direction)");
                }
                Double gbps = s.has("gbps") ? s.positive("gbps", false, 0) : null;
                return new IncidentScript.Step(at, action, null, null, link, s.string("from", null), gbps, null);
            }
            case THROTTLE: {
                only(s, "atS", "action", "link", "factor");
                double f = s.number("factor");
                if (!(f >= 0 && f <= 1)) {
                    throw new ScenarioException(s.path("factor") + ": " + f + " is not in [0, 1]");
                }
                return new IncidentScript.Step(at, action, null, null, s.string("link"), null, null, f);
            }
            default: {
                only(s, "atS", "action", "link");
                String link = action == IncidentScript.Action.FAIL ? s.string("link", IncidentScript.AUTO)
                        : s.string("link");
                return new IncidentScript.Step(at, action, null, null, link, null, null, null);
            }
        }
    }

    private static void only(Fields s, String... allowed) throws ScenarioException {
        Set<String> ok = Set.of(allowed);
        for (String f : STEP) {
            if (s.has(f) && !ok.contains(f)) {
                throw new ScenarioException(s.path(f) + ": not used by this action (allowed: "
                        + String.join(", ", allowed) + ")");
            }
        }
    }
}
