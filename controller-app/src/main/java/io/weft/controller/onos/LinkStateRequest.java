package io.weft.controller.onos;

import java.io.IOException;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.weft.auth.BearerCheck;
import io.weft.auth.Scope;
import io.weft.auth.TokenStore;
import io.weft.contracts.LinkState;
import io.weft.fabric.FabricJson;

/**
 * {@code PUT /links/{id}/state} with {@code {"state":"drained"}} or {@code {"state":"up"}}: the same
 * contract as the standalone controller's (scheduler-api forwards drains to either): an operator
 * token (contracts/auth.md; 401 without or with an unknown token, 403 for another scope), 400 for a
 * bad body, 404 for an unknown link, 503 when this instance cannot drain (it does not plan, no plan
 * yet), 200 with {@code {"linkId","state","version","changed"}}. Errors are {@code {"error": ...}}.
 * Plain logic, apart from JAX-RS, so that it is tested without a web container.
 */
final class LinkStateRequest {
    static final int MAX_BODY_BYTES = 4096;

    private LinkStateRequest() {
    }

    /** One answer: status, JSON body, and the {@code WWW-Authenticate} header of a 401 (else null). */
    static final class Answer {
        final int status;
        final String json;
        final String wwwAuthenticate;

        Answer(int status, String json, String wwwAuthenticate) {
            this.status = status;
            this.json = json;
            this.wwwAuthenticate = wwwAuthenticate;
        }
    }

    static Answer put(TokenStore tokens, WeftLinkStateService links, String linkId, String authorization, byte[] body) {
        BearerCheck auth = new BearerCheck(tokens, (method, path, caller) ->
                caller.scope() == Scope.OPERATOR ? null : BearerCheck.refuse(caller, "operator"));
        BearerCheck.Decision d = auth.check("PUT", "/links/" + linkId + "/state", authorization);
        if (!d.allowed()) {
            return new Answer(d.status(), error(d.message()), d.wwwAuthenticate());
        }
        JsonNode tree;
        try {
            tree = FabricJson.mapper().readTree(body);
        } catch (IOException e) {
            return new Answer(400, error("body: not valid JSON"), null);
        }
        String state = tree == null ? "" : tree.path("state").asText("");
        if (!state.equals(LinkState.DRAINED.json()) && !state.equals(LinkState.UP.json())) {
            return new Answer(400, error("state: must be \"drained\" or \"up\" (down is what telemetry reports)"),
                    null);
        }
        if (links == null) {
            return new Answer(503, error("the Weft app is not active"), null);
        }
        LinkStateChange r;
        try {
            r = links.setDrained(linkId, state.equals(LinkState.DRAINED.json()));
        } catch (IllegalArgumentException e) {
            return new Answer(404, error(e.getMessage()), null);
        } catch (IllegalStateException e) {
            return new Answer(503, error(e.getMessage()), null);
        }
        ObjectNode answer = FabricJson.mapper().createObjectNode().put("linkId", r.linkId()).put("state", r.state())
                .put("version", r.version()).put("changed", r.changed());
        return new Answer(200, answer.toString(), null);
    }

    static String error(String message) {
        return FabricJson.mapper().createObjectNode().put("error", message).toString();
    }
}
