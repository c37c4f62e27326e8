package io.weft.telemetry.config;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.ConstructorBinding;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How link directions are judged hot or down ({@code weft.telemetry.detection.*}).
 *
 * <p>A direction becomes hot when its smoothed utilisation (EWMA with {@code ewmaAlpha}) is above
 * {@code highUtilisation} for {@code samplesToEnter} successive rate samples, and cools down when it
 * falls below {@code lowUtilisation}: the gap between the two is the hysteresis that stops a link
 * sitting at the threshold from flapping.
 *
 * <p>A direction is down when its interface reports oper-status DOWN, or when its octet counter has
 * not moved for {@code frozenTimeoutMs} although the link was "expected to carry traffic": its
 * smoothed utilisation just before the counter froze was at least {@code frozenExpectedUtilisation}.
 * (An idle link's counters are frozen too; that is not a failure.)
 *
 * <p>Congestion that lowers what a link carries (a throttled or lossy port) never raises its
 * utilisation, so a second entry rule reads the port's output queues: with {@code highDropFraction}
 * above 0, a direction also becomes hot after {@code samplesToEnter} successive queue samples that
 * dropped more than that fraction of the packets offered (dropped / (transmitted + dropped)); it
 * cools down only when the EWMA is below {@code lowUtilisation} and the drop fraction is at most
 * {@code lowDropFraction}. 0 (the default) turns the rule off.
 *
 * <p>{@code atOnceDropFraction} (above {@code highDropFraction}; 0 = off, the default) lets one queue
 * sample dropping more than it make the direction hot at once: a rate limit far below what is offered
 * drops a large share in its first full sample, while a noisy link's short bursts drop a small one.
 * It trades the wait for the next sample (up to one interval) against false moves on a link whose
 * bursts drop more than it (docs/EVALUATION.md, the reroute experiment's detection table). Validated in the constructor
 * so
 * that the topology can be built without Spring (tests, benchmark) with the same checks.
 */
@ConfigurationProperties("weft.telemetry.detection")
public record DetectionProperties(
        double highUtilisation,
        double lowUtilisation,
        int samplesToEnter,
        double ewmaAlpha,
        long frozenTimeoutMs,
        double frozenExpectedUtilisation,
        @DefaultValue("0") double highDropFraction,
        @DefaultValue("0") double lowDropFraction,
        @DefaultValue("0") double atOnceDropFraction) {

    public static final DetectionProperties DEFAULTS = new DetectionProperties(0.8, 0.6, 3, 0.5, 3000, 0.05);

    /** Utilisation and link-down rules only (the queue-drop rule off). */
    public DetectionProperties(double highUtilisation, double lowUtilisation, int samplesToEnter, double ewmaAlpha,
                               long frozenTimeoutMs, double frozenExpectedUtilisation) {
        this(highUtilisation, lowUtilisation, samplesToEnter, ewmaAlpha, frozenTimeoutMs, frozenExpectedUtilisation,
                0, 0);
    }

    /** Utilisation, link-down and queue-drop rules (no at-once drop rule). */
    public DetectionProperties(double highUtilisation, double lowUtilisation, int samplesToEnter, double ewmaAlpha,
                               long frozenTimeoutMs, double frozenExpectedUtilisation, double highDropFraction,
                               double lowDropFraction) {
        this(highUtilisation, lowUtilisation, samplesToEnter, ewmaAlpha, frozenTimeoutMs, frozenExpectedUtilisation,
                highDropFraction, lowDropFraction, 0);
    }

    @ConstructorBinding
    public DetectionProperties {
        if (!(highUtilisation > 0) || Double.isInfinite(highUtilisation)) {
            throw new IllegalArgumentException("weft.telemetry.detection.high-utilisation: must be > 0 (got "
                    + highUtilisation + ")");
        }
        if (!(lowUtilisation >= 0) || lowUtilisation >= highUtilisation) {
            throw new IllegalArgumentException("weft.telemetry.detection.low-utilisation: must be >= 0 and below "
                    + "high-utilisation " + highUtilisation + " (got " + lowUtilisation + ")");
        }
        if (samplesToEnter < 1) {
            throw new IllegalArgumentException("weft.telemetry.detection.samples-to-enter: must be >= 1 (got "
                    + samplesToEnter + ")");
        }
        if (!(ewmaAlpha > 0 && ewmaAlpha <= 1)) {
            throw new IllegalArgumentException("weft.telemetry.detection.ewma-alpha: must be in (0, 1] (got "
                    + ewmaAlpha + ")");
        }
        if (frozenTimeoutMs < 1) {
            throw new IllegalArgumentException("weft.telemetry.detection.frozen-timeout-ms: must be >= 1 (got "
                    + frozenTimeoutMs + ")");
        }
        if (!(frozenExpectedUtilisation > 0) || frozenExpectedUtilisation > 1) {
            throw new IllegalArgumentException("weft.telemetry.detection.frozen-expected-utilisation: must be in "
                    + "(0, 1] (got " + frozenExpectedUtilisation + ")");
        }
        if (!(highDropFraction >= 0 && highDropFraction < 1)) {
            throw new IllegalArgumentException("weft.telemetry.detection.high-drop-fraction: must be in [0, 1) (got "
                    + highDropFraction + ")");
        }
        if (!(lowDropFraction >= 0) || (highDropFraction > 0 && lowDropFraction >= highDropFraction)) {
            throw new IllegalArgumentException("weft.telemetry.detection.low-drop-fraction: must be >= 0 and below "
                    + "high-drop-fraction " + highDropFraction + " (got " + lowDropFraction + ")");
        }
        if (!(atOnceDropFraction >= 0 && atOnceDropFraction < 1)
                || (atOnceDropFraction > 0 && !(highDropFraction > 0 && atOnceDropFraction > highDropFraction))) {
            throw new IllegalArgumentException("weft.telemetry.detection.at-once-drop-fraction: must be 0 (off) or in "
                    + "(high-drop-fraction, 1) with the queue-drop rule on (high-drop-fraction " + highDropFraction
                    + "; got " + atOnceDropFraction + ")");
        }
    }

    /** Whether the queue-drop entry rule is on. */
    public boolean dropRuleOn() {
        return highDropFraction > 0;
    }
}
