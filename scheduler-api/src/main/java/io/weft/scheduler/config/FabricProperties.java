package io.weft.scheduler.config;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * @param file a fabric file (contracts/fabric.schema.json) to start from before, or instead of, the
 *             {@code weft.fabric} snapshot; empty for none
 */
@Validated
@ConfigurationProperties("weft.scheduler.fabric")
public record FabricProperties(String file) {
}
