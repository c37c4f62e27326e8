package io.weft.scheduler.reroute;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.weft.auth.KafkaClientSecurity;
import io.weft.placement.PlacementConfig;
import io.weft.scheduler.config.SchedulerKafkaProperties;
import io.weft.scheduler.fabric.Placement;
import org.junit.jupiter.api.Test;
import org.springframework.transaction.support.TransactionOperations;

/** The start-up warm-up runs the loop's decide and pin code for real, and leaves nothing behind. */
class LoopWarmUpTest {
    @Test
    void everyPassDecidesPinsAndUndoesMoves() {
        LoopWarmUp.Report r = LoopWarmUp.run(new ReunionPolicy(1, 1));
        assertThat(r.passes()).isEqualTo(LoopWarmUp.PASSES);
        // One flow off the hot direction per pass (k = 1); a downed link moves every flow crossing it.
        assertThat(r.hotspotMoves()).isEqualTo(LoopWarmUp.PASSES);
        assertThat(r.linkDownMoves()).isGreaterThanOrEqualTo(LoopWarmUp.PASSES);
    }

    @Test
    void aRepeatedRunFindsTheScratchEngineAsItWasSoEachPassUndidItsMoves() {
        // The warm-up asserts its own pin/undo counts; two runs in one JVM must agree to the move.
        assertThat(LoopWarmUp.run(new ReunionPolicy(1, 1))).usingRecursiveComparison().ignoringFields("elapsedMs")
                .isEqualTo(LoopWarmUp.run(new ReunionPolicy(1, 1)));
    }

    @Test
    void theListenerWarmsUpAtStartWithoutTouchingWhatTheServiceOwns() {
        // No ledger, event log or transactions (null: any use would throw), a replica that is not the
        // writer and has no fabric, and a Kafka that is never contacted (a standby does not consume).
        Placement placement = new Placement(PlacementConfig.DEFAULTS, TransactionOperations.withoutTransaction(),
                () -> 0);
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        SchedulerKafkaProperties kafka = new SchedulerKafkaProperties("127.0.0.1:9", "weft.fabric",
                "weft.telemetry.flows", "warm-up");
        RerouteProperties props = new RerouteProperties(true, 1, 1, 500, "weft.hotspots", "warm-up-test");
        HotspotListener listener = new HotspotListener(placement, null, null, null, kafka,
                KafkaClientSecurity.plaintext(), props, meters, event -> { });
        List<String> metersBefore = names(meters);
        try {
            listener.start();
            assertThat(listener.warmUpReport()).as("warmed up at start").isNotNull();
            assertThat(listener.warmUpReport().hotspotMoves()).isPositive();
            assertThat(placement.ready()).as("no fabric given to the service").isFalse();
            assertThat(placement.writer()).as("still a standby").isFalse();
            assertThat(names(meters)).as("no metric registered or moved").isEqualTo(metersBefore);
            meters.getMeters().forEach(m -> m.measure().forEach(s -> assertThat(s.getValue())
                    .as("%s %s", m.getId().getName(), s.getStatistic()).isIn(0.0, Double.NaN)));
        } finally {
            listener.stop();
        }
    }

    @Test
    void withTheLoopOffThereIsNoWarmUp() {
        Placement placement = new Placement(PlacementConfig.DEFAULTS, TransactionOperations.withoutTransaction(),
                () -> 0);
        SchedulerKafkaProperties kafka = new SchedulerKafkaProperties("127.0.0.1:9", "weft.fabric",
                "weft.telemetry.flows", "warm-up");
        RerouteProperties off = new RerouteProperties(false, 1, 1, 500, "weft.hotspots", "warm-up-test");
        HotspotListener listener = new HotspotListener(placement, null, null, null, kafka,
                KafkaClientSecurity.plaintext(), off,
                new SimpleMeterRegistry(), event -> { });
        listener.start();
        assertThat(listener.warmUpReport()).isNull();
        listener.stop();
    }

    private static List<String> names(SimpleMeterRegistry meters) {
        return meters.getMeters().stream().map(Meter::getId).map(Meter.Id::toString).sorted().toList();
    }
}
