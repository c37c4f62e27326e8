package io.weft.controller.onos;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class MainComponentTest {
    @Test
    void registersTheAppAndBothConfigClassesThenUnregistersThem() {
        MainComponent main = new MainComponent();
        FakeCoreService core = new FakeCoreService();
        FakeConfigService configs = new FakeConfigService();
        main.coreService = core;
        main.configRegistry = configs;

        main.activate();

        assertThat(core.registered).containsExactly("io.weft.controller");
        assertThat(main.appId().name()).isEqualTo("io.weft.controller");
        assertThat(configs.registered).extracting(f -> (Object) f.configClass())
                .containsExactlyInAnyOrder(WeftDeviceConfig.class, WeftAppConfig.class);
        assertThat(configs.registered).extracting(f -> f.configKey()).containsOnly("weft");
        assertThat(configs.registered).extracting(f -> (Object) f.createConfig().getClass())
                .containsExactlyInAnyOrder(WeftDeviceConfig.class, WeftAppConfig.class);

        main.deactivate();

        assertThat(configs.registered).isEmpty();
    }
}
