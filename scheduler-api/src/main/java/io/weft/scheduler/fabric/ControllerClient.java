package io.weft.scheduler.fabric;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import io.weft.scheduler.config.ControllerProperties;
import io.weft.scheduler.web.ApiException;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * The controller's link-state door ({@code PUT /links/{id}/state}) as scheduler-api calls it, with
 * its own operator token. The controller's refusals become problem answers: an unknown link 404,
 * anything else 502 (the token is never echoed).
 */
@Component
class ControllerClient {
    /** The controller's answer: the version carrying the link's state and whether this call made it. */
    record LinkStateAnswer(String linkId, String state, long version, boolean changed) {
    }

    private final ControllerProperties props;
    private final ObjectMapper json;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    ControllerClient(ControllerProperties props, ObjectMapper json) {
        this.props = props;
        this.json = json;
    }

    boolean configured() {
        return props.configured();
    }

    Duration drainWait() {
        return props.drainWait();
    }

    LinkStateAnswer setLinkState(String linkId, boolean drained) {
        if (!props.configured()) {
            throw new ApiException(HttpStatus.SERVICE_UNAVAILABLE, null, "drains go to the controller, which owns "
                    + "link states; weft.scheduler.controller.url (WEFT_CONTROLLER_URL) is not set");
        }
        String base = props.url().endsWith("/") ? props.url().substring(0, props.url().length() - 1) : props.url();
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + "/links/"
                        + URLEncoder.encode(linkId, StandardCharsets.UTF_8) + "/state"))
                .timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString("{\"state\":\"" + (drained ? "drained" : "up") + "\"}"));
        String token = token();
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        HttpResponse<String> r;
        try {
            r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new ApiException(HttpStatus.BAD_GATEWAY, null, "the controller at " + base + " did not answer: " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ApiException(HttpStatus.SERVICE_UNAVAILABLE, null, "interrupted while asking the controller");
        }
        String why = errorOf(r.body());
        if (r.statusCode() == 404) {
            throw ApiException.notFound("id", why);
        }
        if (r.statusCode() != 200) {
            throw new ApiException(HttpStatus.BAD_GATEWAY, null, "the controller refused the link state (HTTP "
                    + r.statusCode() + "): " + why);
        }
        JsonNode a = json.readTree(r.body());
        return new LinkStateAnswer(linkId, a.path("state").asString(""), a.path("version").asLong(-1),
                a.path("changed").asBoolean(true));
    }

    private String token() {
        if (props.tokenFile() != null && !props.tokenFile().isBlank()) {
            try {
                return Files.readString(Path.of(props.tokenFile())).trim();
            } catch (IOException e) {
                throw new ApiException(HttpStatus.SERVICE_UNAVAILABLE, null, "cannot read the controller token file "
                        + props.tokenFile() + ": " + e.getMessage());
            }
        }
        return props.token() == null || props.token().isBlank() ? null : props.token().trim();
    }

    private String errorOf(String body) {
        try {
            return json.readTree(body).path("error").asString(body);
        } catch (RuntimeException e) {
            return body.length() > 200 ? body.substring(0, 200) : body;
        }
    }
}
