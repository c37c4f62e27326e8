package io.weft.telemetry;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;

/**
 * One gnmic event, normalised: the counters and oper-status of one interface (or one queue of it)
 * of one switch at one instant.
 *
 * @param target      the switch (gnmic target name)
 * @param interfaceName the interface name as the switch reports it
 * @param queue       the queue name for queue counters, null for interface counters
 * @param timestampNs sample time, ns since the epoch
 * @param counters    counter values as unsigned 64-bit integers held in a long (read them with
 *                    {@link Long#toUnsignedString(long)} / {@link Long#compareUnsigned(long, long)})
 * @param operStatus  upper-case oper-status without module prefix (UP, DOWN, ...), null when absent
 */
public record InterfaceSample(String target, String interfaceName, String queue, long timestampNs,
                              Map<Counter, Long> counters, String operStatus) {

    public InterfaceSample {
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(interfaceName, "interfaceName");
        counters = Collections.unmodifiableMap(counters.isEmpty()
                ? new EnumMap<>(Counter.class) : new EnumMap<>(counters));
    }

    /** The counter as a decimal string, or null when the sample does not carry it. */
    public String counterDecimal(Counter c) {
        Long v = counters.get(c);
        return v == null ? null : Long.toUnsignedString(v);
    }
}
