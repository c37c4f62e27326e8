package io.weft.scheduler.web;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Jetty's own error answers as RFC 9457 problem+json, like every other error of the API. Jetty
 * answers some requests before Spring sees them (a path with a control character, a malformed
 * header or URI): its stock handler wrote an HTML page there, which no API client can parse.
 * No {@code instance} member: the request target of such a request is exactly what was wrong.
 */
final class ProblemJsonErrorHandler extends ErrorHandler {
    private static final ObjectMapper MAPPER = JsonMapper.builder().build();
    private static final HttpField PROBLEM_JSON =
            new HttpField(HttpHeader.CONTENT_TYPE, Problems.PROBLEM_JSON + ";charset=utf-8");

    @Override
    protected void generateResponse(Request request, Response response, int code, String message,
            Throwable cause, Callback callback) throws IOException {
        response.getHeaders().put(PROBLEM_JSON);
        response.write(true, ByteBuffer.wrap(body(code, message)), callback);
    }

    /** Errors found while parsing the request line or headers, before any {@link Request} exists. */
    @Override
    public ByteBuffer badMessageError(int status, String reason, HttpFields.Mutable fields) {
        fields.put(PROBLEM_JSON);
        return ByteBuffer.wrap(body(status, reason));
    }

    static byte[] body(int status, String message) {
        String title = HttpStatus.getMessage(status);
        ObjectNode body = MAPPER.createObjectNode();
        body.put("type", "about:blank");
        body.put("title", title);
        body.put("status", status);
        body.put("detail", message == null || message.isBlank() ? title : message);
        return MAPPER.writeValueAsString(body).getBytes(StandardCharsets.UTF_8);
    }
}
