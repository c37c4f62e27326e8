package io.weft.controller.onos;

import java.util.List;

import org.onosproject.core.ApplicationId;
import org.onosproject.core.CoreService;
import org.onosproject.net.DeviceId;
import org.onosproject.net.config.ConfigFactory;
import org.onosproject.net.config.NetworkConfigRegistry;
import org.onosproject.net.config.basics.SubjectFactories;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Registers the Weft application id and its two netcfg classes. Other Weft components get the
 * application id from here, so they start only after the configs can be read.
 */
@Component(immediate = true, service = MainComponent.class)
public class MainComponent {
    public static final String APP_NAME = "io.weft.controller";

    private final Logger log = LoggerFactory.getLogger(getClass());

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected CoreService coreService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected NetworkConfigRegistry configRegistry;

    private final ConfigFactory<DeviceId, WeftDeviceConfig> deviceConfigFactory =
            new ConfigFactory<DeviceId, WeftDeviceConfig>(
                    SubjectFactories.DEVICE_SUBJECT_FACTORY, WeftDeviceConfig.class, WeftDeviceConfig.KEY) {
                @Override
                public WeftDeviceConfig createConfig() {
                    return new WeftDeviceConfig();
                }
            };

    private final ConfigFactory<ApplicationId, WeftAppConfig> appConfigFactory =
            new ConfigFactory<ApplicationId, WeftAppConfig>(
                    SubjectFactories.APP_SUBJECT_FACTORY, WeftAppConfig.class, WeftAppConfig.KEY) {
                @Override
                public WeftAppConfig createConfig() {
                    return new WeftAppConfig();
                }
            };

    private ApplicationId appId;

    @Activate
    protected void activate() {
        appId = coreService.registerApplication(APP_NAME);
        for (ConfigFactory<?, ?> f : factories()) {
            configRegistry.registerConfigFactory(f);
        }
        log.info("Started {}", appId);
    }

    @Deactivate
    protected void deactivate() {
        for (ConfigFactory<?, ?> f : factories()) {
            configRegistry.unregisterConfigFactory(f);
        }
        log.info("Stopped");
    }

    /** The registered application id (subject of {@link WeftAppConfig}). */
    public ApplicationId appId() {
        return appId;
    }

    List<ConfigFactory<?, ?>> factories() {
        return List.of(deviceConfigFactory, appConfigFactory);
    }
}
