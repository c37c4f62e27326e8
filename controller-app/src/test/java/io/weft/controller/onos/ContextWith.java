package io.weft.controller.onos;

import java.util.Dictionary;
import java.util.Hashtable;

import org.onlab.osgi.ComponentContextAdapter;

/** A component context carrying the given properties, as Config Admin would pass to @Modified. */
@SuppressWarnings("unchecked") // ComponentContextAdapter implements the generic OSGi methods raw
class ContextWith extends ComponentContextAdapter {
    private final Hashtable<String, Object> props = new Hashtable<>();

    /** Name/value pairs: ("replanDebounceMs", 0, "kafkaBootstrap", "host:9092"). */
    ContextWith(Object... nameValuePairs) {
        for (int i = 0; i < nameValuePairs.length; i += 2) {
            props.put((String) nameValuePairs[i], nameValuePairs[i + 1]);
        }
    }

    @Override
    @SuppressWarnings("rawtypes")
    public Dictionary getProperties() {
        return props;
    }
}
