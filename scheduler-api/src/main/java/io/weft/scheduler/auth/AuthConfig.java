package io.weft.scheduler.auth;

import java.nio.file.Path;

import io.weft.auth.TokenStore;
import io.weft.scheduler.config.AuthProperties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration(proxyBeanMethods = false)
class AuthConfig {
    private static final Logger LOG = LoggerFactory.getLogger(AuthConfig.class);

    @Bean
    TokenStore tokenStore(AuthProperties props) {
        String file = props.tokensFile();
        TokenStore store = TokenStore.of(props.tokens(), file == null || file.isBlank() ? null : Path.of(file));
        if (store.size() == 0) {
            throw new IllegalStateException("no API tokens configured: set WEFT_TOKENS "
                    + "(name:scope[:nic1,nic2]=token;...) or weft.scheduler.auth.tokens-file");
        }
        LOG.info("{} API tokens loaded", store.size());
        return store;
    }
}
