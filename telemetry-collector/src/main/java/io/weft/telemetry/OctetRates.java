package io.weft.telemetry;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Rate state for every octet counter of every interface and queue seen so far: feeds each sample's
 * octet counters to the {@link CounterRate} of (target, interface, queue, counter).
 *
 * <p>Only octet counters are rated here: their rates are link loads in Gbit/s and the line rate
 * tells a wrap from a reset. Packet counters (drops, ECN marks) are read as ratios over the same
 * interval by the hotspot detector. Not thread-safe: one instance per partition, fed in order.
 */
public final class OctetRates {

    /** The line rate of one direction of an interface, or null when the fabric does not know it. */
    @FunctionalInterface
    public interface LineRates {
        Double capacityGbps(String target, String interfaceName);
    }

    /** Identifies one counter of one interface (queue null) or one queue of it. */
    public record Key(String target, String interfaceName, String queue, Counter counter) {
        public Key {
            Objects.requireNonNull(target, "target");
            Objects.requireNonNull(interfaceName, "interfaceName");
            Objects.requireNonNull(counter, "counter");
        }
    }

    /** One counter's outcome for one sample. */
    public record Rate(Key key, long timestampNs, CounterRate.Result result) {
    }

    private final LineRates lineRates;
    private final Map<Key, CounterRate> state = new HashMap<>();

    public OctetRates(LineRates lineRates) {
        this.lineRates = Objects.requireNonNull(lineRates, "lineRates");
    }

    /**
     * Feeds one sample; returns one outcome per octet counter it carries, in {@link Counter} order.
     * Interfaces whose line rate is unknown are skipped (they are not fabric links) and give nothing.
     */
    public List<Rate> accept(InterfaceSample s) {
        List<Rate> out = new ArrayList<>();
        Double capacityGbps = null;
        for (Map.Entry<Counter, Long> c : s.counters().entrySet()) {
            if (!c.getKey().octets()) {
                continue;
            }
            Key key = new Key(s.target(), s.interfaceName(), s.queue(), c.getKey());
            CounterRate rate = state.get(key);
            if (rate == null) {
                if (capacityGbps == null) {
                    capacityGbps = lineRates.capacityGbps(s.target(), s.interfaceName());
                }
                if (capacityGbps == null || !(capacityGbps > 0)) {
                    continue;
                }
                rate = new CounterRate(capacityGbps);
                state.put(key, rate);
            }
            out.add(new Rate(key, s.timestampNs(), rate.update(s.timestampNs(), c.getValue())));
        }
        return out;
    }

    /** Forgets an interface (it left the fabric, or its line rate changed). */
    public void forget(String target, String interfaceName) {
        state.keySet().removeIf(k -> k.target().equals(target) && k.interfaceName().equals(interfaceName));
    }

    /** How many counters have state. */
    public int size() {
        return state.size();
    }
}
