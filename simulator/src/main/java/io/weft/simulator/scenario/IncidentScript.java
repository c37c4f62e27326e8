package io.weft.simulator.scenario;

import java.util.List;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * A live-mode incident (read by {@link IncidentScriptReader}): steps run at {@code atS} seconds
 * after the live fabric follows the controller's plan.
 *
 * @param settleS at most how long after a fault its moves are awaited before they are checked against
 *                the announcement (earlier once every announced flow moved and recovered and nothing
 *                else moved for 3 s)
 */
public record IncidentScript(double settleS, List<Step> steps) {
    /** What a step does. */
    public enum Action { JOB, DEGRADE, THROTTLE, FAIL, RESTORE }

    /** The link a fault step picks for itself: see simulator/README.md, live mode. */
    public static final String AUTO = "auto";

    /**
     * One step. {@code job}: the body of {@code POST /v1/jobs} (checked by the service) and an
     * optional {@code idempotencyKey}; its {@code endpoints} may be {@code {"spread": n}}, n NICs of
     * whatever fabric runs, taken from its leaves in turn (first NIC of each leaf, then the second...),
     * so one incident file serves every fabric. {@code degrade}: {@code gbps} of traffic Weft does not place
     * on the direction of {@code link} leaving {@code from} (null: the automatic choice).
     * {@code throttle}: {@code factor} of the link's capacity. {@code fail} / {@code restore}: the link.
     */
    public record Step(double atS, Action action, ObjectNode job, String idempotencyKey, String link, String from,
                       Double gbps, Double factor) {
    }
}
