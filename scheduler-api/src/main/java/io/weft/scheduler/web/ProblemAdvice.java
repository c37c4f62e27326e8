package io.weft.scheduler.web;

import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.TypeMismatchException;
import org.springframework.context.MessageSourceResolvable;
import org.springframework.core.MethodParameter;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.validation.FieldError;
import org.springframework.validation.method.ParameterErrors;
import org.springframework.validation.method.ParameterValidationResult;
import org.springframework.web.ErrorResponse;
import org.springframework.web.bind.MethodArgumentNotValidException;
import org.springframework.web.bind.MissingRequestHeaderException;
import org.springframework.web.bind.MissingServletRequestParameterException;
import org.springframework.web.bind.ServletRequestBindingException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.method.annotation.HandlerMethodValidationException;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;
import tools.jackson.core.JacksonException;
import tools.jackson.core.exc.StreamReadException;
import tools.jackson.databind.exc.InvalidFormatException;
import tools.jackson.databind.exc.MismatchedInputException;
import tools.jackson.databind.exc.UnrecognizedPropertyException;

/**
 * Every error leaves the service as problem+json with a {@code field} member naming the culprit.
 * Client mistakes (bad JSON, wrong types, unknown enum values, missing fields, oversize bodies) are
 * 4xx with a one-line reason; anything else is a 500 whose detail says nothing about internals (the
 * stack trace goes to the log only).
 */
@RestControllerAdvice
class ProblemAdvice extends ResponseEntityExceptionHandler {
    private static final Logger LOG = LoggerFactory.getLogger(ProblemAdvice.class);

    @ExceptionHandler(ApiException.class)
    ResponseEntity<ProblemDetail> api(ApiException e) {
        ResponseEntity<ProblemDetail> r = problem(e.status(), e.field(), e.getMessage());
        if (e.retryAfterSeconds() == null) {
            return r;
        }
        return ResponseEntity.status(r.getStatusCode()).headers(r.getHeaders())
                .header(HttpHeaders.RETRY_AFTER, Integer.toString(e.retryAfterSeconds())).body(r.getBody());
    }

    @ExceptionHandler(Exception.class)
    ResponseEntity<ProblemDetail> unexpected(Exception e) {
        LOG.error("unexpected error", e);
        return problem(HttpStatus.INTERNAL_SERVER_ERROR, null, "internal error; see the service log");
    }

    @Override
    protected ResponseEntity<Object> handleHttpMessageNotReadable(HttpMessageNotReadableException e,
            HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof BodyLimitFilter.BodyTooLargeException) {
                return cast(problem(HttpStatus.CONTENT_TOO_LARGE, "body", t.getMessage()));
            }
        }
        Throwable cause = e.getMostSpecificCause();
        if (cause instanceof JacksonException je) {
            String field = pathOf(je);
            return cast(problem(HttpStatus.BAD_REQUEST, field == null ? "body" : field, describe(je)));
        }
        return cast(problem(HttpStatus.BAD_REQUEST, "body", "request body is missing or not readable JSON"));
    }

    @Override
    protected ResponseEntity<Object> handleMethodArgumentNotValid(MethodArgumentNotValidException e,
            HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        FieldError fe = e.getBindingResult().getFieldError();
        if (fe != null) {
            return cast(problem(HttpStatus.BAD_REQUEST, fe.getField(), fe.getField() + ": " + fe.getDefaultMessage()));
        }
        return cast(problem(HttpStatus.BAD_REQUEST, "body", e.getBindingResult().getAllErrors().get(0)
                .getDefaultMessage()));
    }

    @Override
    protected ResponseEntity<Object> handleHandlerMethodValidationException(HandlerMethodValidationException e,
            HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        for (ParameterValidationResult result : e.getParameterValidationResults()) {
            if (result instanceof ParameterErrors pe && pe.getFieldError() != null) {
                FieldError fe = pe.getFieldError();
                return cast(problem(HttpStatus.BAD_REQUEST, fe.getField(), fe.getField() + ": "
                        + fe.getDefaultMessage()));
            }
        }
        ParameterValidationResult result = e.getParameterValidationResults().get(0);
        String name = parameterName(result.getMethodParameter());
        List<MessageSourceResolvable> errors = result.getResolvableErrors();
        String why = errors.isEmpty() ? "invalid" : errors.get(0).getDefaultMessage();
        return cast(problem(HttpStatus.BAD_REQUEST, name, name + ": " + why));
    }

    /** The name the client used: the header or query parameter name, not the Java parameter's. */
    private static String parameterName(MethodParameter p) {
        RequestHeader h = p.getParameterAnnotation(RequestHeader.class);
        if (h != null && !h.name().isEmpty()) {
            return h.name();
        }
        RequestParam q = p.getParameterAnnotation(RequestParam.class);
        if (q != null && !q.name().isEmpty()) {
            return q.name();
        }
        return p.getParameterName();
    }

    @Override
    protected ResponseEntity<Object> handleTypeMismatch(TypeMismatchException e, HttpHeaders headers,
            HttpStatusCode status, WebRequest request) {
        String name = e.getPropertyName();
        String type = e.getRequiredType() == null ? "value" : typeName(e.getRequiredType());
        return cast(problem(HttpStatus.BAD_REQUEST, name, name + ": '" + e.getValue() + "' is not a valid " + type));
    }

    @Override
    protected ResponseEntity<Object> handleMissingServletRequestParameter(MissingServletRequestParameterException e,
            HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        return cast(problem(HttpStatus.BAD_REQUEST, e.getParameterName(), e.getParameterName() + ": required"));
    }

    @Override
    protected ResponseEntity<Object> handleServletRequestBindingException(ServletRequestBindingException e,
            HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        if (e instanceof MissingRequestHeaderException mh) {
            return cast(problem(HttpStatus.BAD_REQUEST, mh.getHeaderName(), mh.getHeaderName() + " header: required"));
        }
        return cast(problem(HttpStatus.BAD_REQUEST, null, e.getMessage()));
    }

    /** The framework's own 4xx (405, 406, 415, 404, ...): keep its status and text, add our shape. */
    @Override
    protected ResponseEntity<Object> handleExceptionInternal(Exception e, Object body, HttpHeaders headers,
            HttpStatusCode status, WebRequest request) {
        String detail = body instanceof ProblemDetail pd && pd.getDetail() != null ? pd.getDetail()
                : e instanceof ErrorResponse er && er.getBody().getDetail() != null ? er.getBody().getDetail()
                : HttpStatus.valueOf(status.value()).getReasonPhrase();
        ProblemDetail p = Problems.of(status, null, detail);
        return ResponseEntity.status(status).headers(headers).contentType(Problems.PROBLEM_JSON).body(p);
    }

    private static ResponseEntity<ProblemDetail> problem(HttpStatusCode status, String field, String detail) {
        return ResponseEntity.status(status).contentType(Problems.PROBLEM_JSON)
                .body(Problems.of(status, field, detail));
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static ResponseEntity<Object> cast(ResponseEntity<ProblemDetail> r) {
        return (ResponseEntity) r;
    }

    /** "flows[2].demandGbps" from Jackson's reference chain, or null at the root. */
    static String pathOf(JacksonException e) {
        StringBuilder sb = new StringBuilder();
        for (JacksonException.Reference r : e.getPath()) {
            if (r.getPropertyName() != null) {
                if (!sb.isEmpty()) {
                    sb.append('.');
                }
                sb.append(r.getPropertyName());
            } else if (r.getIndex() >= 0) {
                sb.append('[').append(r.getIndex()).append(']');
            }
        }
        return sb.isEmpty() ? null : sb.toString();
    }

    private static String describe(JacksonException e) {
        String at = pathOf(e);
        String prefix = at == null ? "" : at + ": ";
        if (e instanceof UnrecognizedPropertyException u) {
            return prefix + "unknown field";
        }
        if (e instanceof InvalidFormatException f) {
            Class<?> t = f.getTargetType();
            if (t != null && t.isEnum()) {
                String allowed = Arrays.stream(t.getEnumConstants()).map(Object::toString)
                        .collect(Collectors.joining(", "));
                return prefix + "'" + f.getValue() + "' is not one of " + allowed;
            }
            return prefix + "'" + f.getValue() + "' is not a valid " + typeName(t);
        }
        if (e instanceof MismatchedInputException m) {
            return prefix + "expected " + typeName(m.getTargetType());
        }
        if (e instanceof StreamReadException s) {
            var loc = s.getLocation();
            return "malformed JSON" + (loc == null ? "" : " at line " + loc.getLineNr() + ", column "
                    + loc.getColumnNr());
        }
        return prefix + "not readable";
    }

    private static String typeName(Class<?> t) {
        if (t == null) {
            return "value";
        }
        if (t == Integer.class || t == int.class || t == Long.class || t == long.class) {
            return "integer";
        }
        if (t == Double.class || t == double.class || t == Float.class || t == float.class) {
            return "number";
        }
        if (t == Boolean.class || t == boolean.class) {
            return "boolean";
        }
        if (t == String.class) {
            return "string";
        }
        if (List.class.isAssignableFrom(t) || t.isArray()) {
            return "array";
        }
        if (t.isEnum()) {
            return "one of " + Arrays.stream(t.getEnumConstants()).map(Object::toString)
                    .collect(Collectors.joining(", "));
        }
        if (t.getPackageName().startsWith("io.weft")) {
            return "object";
        }
        return t.getSimpleName();
    }
}
