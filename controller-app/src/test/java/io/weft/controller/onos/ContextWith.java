package io.weft.controller.onos;

import org.onlab.osgi.ComponentContextAdapter;

import java.util.Dictionary;
import java.util.Hashtable;

/** A component context carrying the given properties, as Config Admin would pass to @Modified. */
class ContextWith extends ComponentContextAdapter {
    private final Hashtable<String, Object> props = new Hashtable<>();

    ContextWith(String name, Object value) {
        props.put(name, value);
    }

    @Override
    @SuppressWarnings("rawtypes")
    public Dictionary getProperties() {
        return props;
    }
}
