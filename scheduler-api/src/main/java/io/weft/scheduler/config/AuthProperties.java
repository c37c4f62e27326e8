package io.weft.scheduler.config;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * Where bearer tokens come from. Both sources are merged; a service with no token at all refuses
 * to start (an open scheduler API would let anyone steer the fabric).
 *
 * @param tokensFile JSON file {@code {"tokens":[{"name","scope","nics":[...],"token"}]}}, or empty
 * @param tokens     inline list in the WEFT_TOKENS format {@code name:scope[:nic1,nic2]=token;...}
 */
@Validated
@ConfigurationProperties("weft.scheduler.auth")
public record AuthProperties(String tokensFile, String tokens) {
}
