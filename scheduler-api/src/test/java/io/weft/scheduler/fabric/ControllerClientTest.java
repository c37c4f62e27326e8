package io.weft.scheduler.fabric;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;

import io.weft.devstack.DevstackEndpoints;
import io.weft.devstack.junit.WeftDevstackTest;
import io.weft.scheduler.api.TestController;
import io.weft.scheduler.config.ControllerProperties;
import io.weft.scheduler.web.ApiException;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpStatus;
import tools.jackson.databind.json.JsonMapper;

/**
 * scheduler-api's side of the controller's door, against the real controller: its own operator
 * token is taken, a missing or wrong one is the controller's 401 passed on as 502 (never echoing the
 * token), an unknown link is 404 naming the id, and no URL at all is 503.
 */
@WeftDevstackTest
class ControllerClientTest {
    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Test
    void theControllerTakesOnlyScheduleApisOwnToken(DevstackEndpoints e) {
        String url = "http://127.0.0.1:" + TestController.port(e);
        ControllerClient right = client(url, TestController.TOKEN);
        ControllerClient.LinkStateAnswer a = right.setLinkState("leaf1-spine2", false);
        assertThat(a.state()).isEqualTo("up");
        assertThat(a.version()).isPositive();

        for (String token : new String[] {null, "not-the-controllers-token-0123"}) {
            assertThatThrownBy(() -> client(url, token).setLinkState("leaf1-spine2", false))
                    .isInstanceOfSatisfying(ApiException.class, ex -> {
                        assertThat(ex.status()).isEqualTo(HttpStatus.BAD_GATEWAY);
                        assertThat(ex.getMessage()).contains("HTTP 401");
                        if (token != null) {
                            assertThat(ex.getMessage()).doesNotContain(token);
                        }
                    });
        }
        assertThatThrownBy(() -> right.setLinkState("no-such-link", true))
                .isInstanceOfSatisfying(ApiException.class, ex -> {
                    assertThat(ex.status()).isEqualTo(HttpStatus.NOT_FOUND);
                    assertThat(ex.field()).isEqualTo("id");
                });
        assertThatThrownBy(() -> client("", TestController.TOKEN).setLinkState("leaf1-spine2", true))
                .isInstanceOfSatisfying(ApiException.class,
                        ex -> assertThat(ex.status()).isEqualTo(HttpStatus.SERVICE_UNAVAILABLE));
    }

    private static ControllerClient client(String url, String token) {
        return new ControllerClient(new ControllerProperties(url, token, null, Duration.ofSeconds(10)), JSON);
    }
}
