package io.weft.scheduler.web;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.responses.ApiResponses;
import io.weft.scheduler.config.LimitsProperties;
import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springframework.stereotype.Component;

/**
 * Makes the served OpenAPI say what the service really does, for the answers no controller
 * method declares because filters and Spring MVC give them on every operation:
 * <ul>
 *   <li>401 (no or unknown bearer token) and 403 (the token's scope or NIC binding does not
 *       allow the operation) on every operation: {@code BearerAuthFilter} runs before all of them;</li>
 *   <li>400 wherever a parameter, header or body can be malformed;</li>
 *   <li>413 (body over the limit) and 415 (not JSON) wherever a body is read;</li>
 *   <li>{@code ProblemDetail.instance} is a URI reference (RFC 9457 §3.1.5: the request path,
 *       which is relative), not an absolute URI;</li>
 *   <li>the rules of a job request that JSON Schema can say (cross-field ones as conditionals,
 *       at least two distinct endpoints, multipath only with one QP slice, the page size limit in
 *       force), so a client or a fuzzer
 *       can tell a valid job from an invalid one without asking the service. What depends on the
 *       fabric (unknown NIC or tenant, src = dst) stays a 400 no schema can predict.</li>
 * </ul>
 * Each addition only fills a gap: a status a controller documents itself keeps its own text.
 */
@Component
class ApiContractCustomizer implements OpenApiCustomizer {
    static final String PROBLEM_REF = "#/components/schemas/ProblemDetail";

    private final LimitsProperties limits;

    ApiContractCustomizer(LimitsProperties limits) {
        this.limits = limits;
    }

    @Override
    public void customise(OpenAPI api) {
        for (PathItem item : api.getPaths().values()) {
            for (Operation op : item.readOperations()) {
                ApiResponses responses = op.getResponses();
                add(responses, "401", "missing or unknown bearer token");
                add(responses, "403", "the token's scope (or its NIC binding) does not allow this operation");
                boolean hasBody = op.getRequestBody() != null;
                boolean hasParameters = op.getParameters() != null && !op.getParameters().isEmpty();
                if (hasBody || hasParameters) {
                    add(responses, "400", "a malformed parameter, header or body; 'field' names the culprit");
                }
                if (hasBody) {
                    add(responses, "413", "the body is larger than the service accepts");
                    add(responses, "415", "the body is not application/json");
                }
            }
        }
        Map<String, Schema> schemas = api.getComponents().getSchemas();
        Schema<?> problem = schemas.get("ProblemDetail");
        if (problem != null && problem.getProperties() != null) {
            Schema<?> instance = problem.getProperties().get("instance");
            if (instance != null) {
                instance.setFormat("uri-reference");
            }
        }
        Schema<?> job = schemas.get("JobRequest");
        if (job != null) {
            job.setAllOf(jobRules());
            Map<String, Schema> props = job.getProperties();
            props.get("endpoints").minItems(2).uniqueItems(true); // what Patterns.expand requires
            props.get("flows").minItems(1);
        }
        Schema<?> multipath = schemas.get("MultipathRequest");
        if (multipath != null) {
            @SuppressWarnings("unchecked")
            Schema<Object> granularity = (Schema<Object>) multipath.getProperties().get("granularity");
            granularity.setEnum(List.of(8, 16)); // what JobRequests accepts
        }
        Operation list = api.getPaths().get("/v1/jobs").getGet();
        list.getParameters().stream().filter(p -> "size".equals(p.getName()))
                .forEach(p -> p.getSchema().setMaximum(BigDecimal.valueOf(limits.maxPageSize())));
    }

    private static void add(ApiResponses responses, String status, String description) {
        if (responses.containsKey(status)) {
            return;
        }
        responses.addApiResponse(status, new ApiResponse().description(description).content(new Content()
                .addMediaType(Problems.PROBLEM_JSON.toString(),
                        new MediaType().schema(new Schema<>().$ref(PROBLEM_REF)))));
    }

    /**
     * The rules {@code JobRequests} checks, as JSON Schema: explicit jobs list flows (each with a
     * demand unless the job has one) and no endpoints; every other pattern takes endpoints and a
     * demand and no flows; concurrentPeers belongs to all-to-all and order to ring.
     */
    private static List<Schema> jobRules() {
        Schema<?> explicit = patternIs("explicit");
        Schema<?> flowsNeedDemand = new Schema<>();
        flowsNeedDemand.setIf(new Schema<>().not(new Schema<>().required(List.of("demandGbps"))));
        flowsNeedDemand.setThen(new Schema<>().properties(Map.of("flows",
                new Schema<>().items(new Schema<>().required(List.of("demandGbps"))))));
        Schema<?> byPattern = new Schema<>();
        byPattern.setIf(explicit);
        byPattern.setThen(new Schema<>().required(List.of("flows"))
                .not(new Schema<>().required(List.of("endpoints")))
                .allOf(List.of(flowsNeedDemand)));
        byPattern.setElse(new Schema<>().required(List.of("endpoints", "demandGbps"))
                .not(new Schema<>().required(List.of("flows"))));
        return List.of(byPattern, onlyWith("concurrentPeers", "all-to-all"), onlyWith("order", "ring"),
                multipathIsTheSlicing());
    }

    /** With multipath the paths are the QP slices: qpSlices may only be 1. */
    private static Schema<?> multipathIsTheSlicing() {
        Schema<?> rule = new Schema<>();
        rule.setIf(new Schema<>().required(List.of("multipath")));
        rule.setThen(new Schema<>().properties(Map.of("qpSlices", new Schema<>().maximum(BigDecimal.ONE))));
        return rule;
    }

    private static Schema<?> patternIs(String pattern) {
        Schema<?> p = new Schema<>();
        p.setConst(pattern);
        return new Schema<>().required(List.of("pattern")).properties(Map.of("pattern", p));
    }

    private static Schema<?> onlyWith(String field, String pattern) {
        Schema<?> rule = new Schema<>();
        rule.setIf(new Schema<>().required(List.of(field)));
        rule.setThen(patternIs(pattern));
        return rule;
    }
}
