package io.weft.controller.onos;

import java.util.ArrayList;
import java.util.List;

import org.onosproject.TestApplicationId;
import org.onosproject.core.ApplicationId;
import org.onosproject.core.CoreServiceAdapter;

/** Records the application names registered. */
class FakeCoreService extends CoreServiceAdapter {
    final List<String> registered = new ArrayList<>();

    @Override
    public ApplicationId registerApplication(String name) {
        registered.add(name);
        return MainComponent.APP_NAME.equals(name) ? TestFabric.APP_ID : new TestApplicationId(name);
    }
}
