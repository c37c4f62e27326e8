package io.weft.scheduler.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.weft.placement.PlacementConfig;
import io.weft.scheduler.config.RespreadProperties;
import io.weft.scheduler.fabric.Placement;
import io.weft.scheduler.web.ApiException;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpStatus;

/** A standby replica refuses a re-spread, dry run included, as it refuses every write. */
class MultipathRespreadStandbyTest {
    @Test
    void aStandbyAnswers503WithRetryAfterAndTouchesNothing() {
        // A placement that never took the writer lease; store, ledger and events must not be reached.
        Placement standby = new Placement(PlacementConfig.DEFAULTS, null, () -> 0);
        MultipathRespread respread = new MultipathRespread(standby, null, null, null,
                new RespreadProperties(true, true, 0.05, 0, 1000));
        for (boolean dryRun : new boolean[] {false, true}) {
            ApiException e = catchThrowableOfType(ApiException.class, () -> respread.run(dryRun, "ops"));
            assertThat(e.status()).isEqualTo(HttpStatus.SERVICE_UNAVAILABLE);
            assertThat(e.retryAfterSeconds()).isEqualTo(1);
            assertThat(e.getMessage()).contains("standby");
        }
        respread.stop();
    }
}
