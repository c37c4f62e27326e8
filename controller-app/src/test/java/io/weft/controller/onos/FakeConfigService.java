package io.weft.controller.onos;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import org.onosproject.core.ApplicationId;
import org.onosproject.net.DeviceId;
import org.onosproject.net.config.Config;
import org.onosproject.net.config.ConfigFactory;
import org.onosproject.net.config.NetworkConfigListener;
import org.onosproject.net.config.NetworkConfigRegistryAdapter;

/** Netcfg held in a map; records registered factories and listeners. */
class FakeConfigService extends NetworkConfigRegistryAdapter {
    final Map<Object, Map<Class<?>, Config<?>>> configs = new HashMap<>();
    final List<ConfigFactory> registered = new ArrayList<>();
    final List<NetworkConfigListener> listeners = new ArrayList<>();

    WeftDeviceConfig putDevice(String deviceId, JsonNode json) {
        DeviceId id = DeviceId.deviceId(deviceId);
        WeftDeviceConfig cfg = Fixtures.deviceConfig(id, json);
        configs.computeIfAbsent(id, k -> new HashMap<>()).put(WeftDeviceConfig.class, cfg);
        return cfg;
    }

    WeftAppConfig putApp(ApplicationId appId, JsonNode json) {
        WeftAppConfig cfg = Fixtures.appConfig(appId, json);
        configs.computeIfAbsent(appId, k -> new HashMap<>()).put(WeftAppConfig.class, cfg);
        return cfg;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <S, C extends Config<S>> C getConfig(S subject, Class<C> configClass) {
        Map<Class<?>, Config<?>> bySubject = configs.get(subject);
        return bySubject == null ? null : (C) bySubject.get(configClass);
    }

    @Override
    public void registerConfigFactory(ConfigFactory configFactory) {
        registered.add(configFactory);
    }

    @Override
    public void unregisterConfigFactory(ConfigFactory configFactory) {
        registered.remove(configFactory);
    }

    @Override
    public void addListener(NetworkConfigListener listener) {
        listeners.add(listener);
    }

    @Override
    public void removeListener(NetworkConfigListener listener) {
        listeners.remove(listener);
    }
}
