package io.weft.telemetry.stream;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.state.StoreBuilder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The global store behind {@code weft.fabric}: the latest snapshot of every fabric, kept as a parsed
 * {@link InterfaceDirectionIndex} rather than as bytes.
 *
 * <p>Why not a plain GlobalKTable: its store holds serialised values and deserialises on every
 * lookup, and a snapshot is megabytes of JSON; here each snapshot is parsed once, when it arrives
 * (or is restored from the topic at start-up), and every interface sample does one hash lookup.
 * Written by the global thread, read by the stream threads: the merged map is replaced whole
 * (copy on write, volatile), never mutated in place.
 */
public final class InterfaceDirectionIndexStore implements StateStore {
    private static final Logger LOG = LoggerFactory.getLogger(InterfaceDirectionIndexStore.class);
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final String name;
    private final Map<String, InterfaceDirectionIndex> fabrics = new HashMap<>();
    private volatile Map<String, Map<String, List<MeasuredArc>>> merged = Map.of();
    private volatile boolean open;

    InterfaceDirectionIndexStore(String name) {
        this.name = name;
    }

    /** The directions this (switch, interface) measures in any known fabric; empty when none. */
    public List<MeasuredArc> lookup(String target, String interfaceName) {
        return InterfaceDirectionIndex.lookup(merged, target, interfaceName);
    }

    /** The fabrics held, by id (a copy). */
    public synchronized Map<String, InterfaceDirectionIndex> fabrics() {
        return Map.copyOf(fabrics);
    }

    /**
     * Applies one weft.fabric record: a newer snapshot replaces the fabric's index, an older or equal
     * version is ignored (contracts/topics.md), a null value (tombstone) removes the fabric, and an
     * unreadable snapshot is logged and ignored (the previous index stays in use).
     */
    public synchronized void apply(String fabricId, byte[] value) {
        if (fabricId == null) {
            return;
        }
        if (value == null) {
            if (fabrics.remove(fabricId) != null) {
                LOG.info("fabric {} removed (tombstone on weft.fabric)", fabricId);
                rebuild();
            }
            return;
        }
        InterfaceDirectionIndex index;
        try {
            JsonNode tree = MAPPER.readTree(new String(value, StandardCharsets.UTF_8));
            index = InterfaceDirectionIndex.fromSnapshot(tree);
        } catch (Exception e) {
            LOG.warn("weft.fabric snapshot for {} ignored: {}", fabricId, oneLine(e));
            return;
        }
        InterfaceDirectionIndex held = fabrics.get(fabricId);
        if (held != null && index.version() <= held.version()) {
            return;
        }
        fabrics.put(fabricId, index);
        rebuild();
        LOG.info("fabric {} version {}: {} link directions measurable", fabricId, index.version(), index.arcCount());
    }

    private static String oneLine(Exception e) {
        String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        int nl = m.indexOf('\n');
        return nl < 0 ? m : m.substring(0, nl);
    }

    private void rebuild() {
        // Several fabrics naming the same switch port would be a deployment error; the last one wins.
        Map<String, Map<String, List<MeasuredArc>>> m = new HashMap<>();
        for (InterfaceDirectionIndex f : fabrics.values()) {
            f.byPort().forEach((target, ports) -> m.computeIfAbsent(target, k -> new HashMap<>()).putAll(ports));
        }
        merged = m;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public void init(StateStoreContext context, StateStore root) {
        // Restoration at start-up replays weft.fabric through the same apply().
        context.register(root, (key, value) ->
                apply(key == null ? null : new String(key, StandardCharsets.UTF_8), value));
        open = true;
    }

    @Override
    public void flush() {
        // Nothing to flush: the topic itself is the store's log.
    }

    @Override
    public void close() {
        open = false;
    }

    @Override
    public boolean persistent() {
        return false;
    }

    @Override
    public boolean isOpen() {
        return open;
    }

    /** Builds the store; global stores must not have a changelog (weft.fabric is their log). */
    static StoreBuilder<InterfaceDirectionIndexStore> builder(String name) {
        return new StoreBuilder<>() {
            @Override
            public StoreBuilder<InterfaceDirectionIndexStore> withCachingEnabled() {
                return this;
            }

            @Override
            public StoreBuilder<InterfaceDirectionIndexStore> withCachingDisabled() {
                return this;
            }

            @Override
            public StoreBuilder<InterfaceDirectionIndexStore> withLoggingEnabled(Map<String, String> config) {
                throw new UnsupportedOperationException("the fabric index is restored from weft.fabric, it has no "
                        + "changelog");
            }

            @Override
            public StoreBuilder<InterfaceDirectionIndexStore> withLoggingDisabled() {
                return this;
            }

            @Override
            public InterfaceDirectionIndexStore build() {
                return new InterfaceDirectionIndexStore(name);
            }

            @Override
            public Map<String, String> logConfig() {
                return Map.of();
            }

            @Override
            public boolean loggingEnabled() {
                return false;
            }

            @Override
            public String name() {
                return name;
            }
        };
    }
}
