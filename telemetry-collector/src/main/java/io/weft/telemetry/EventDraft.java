package io.weft.telemetry;

import java.util.EnumMap;
import java.util.Map;

/**
 * One gnmic event as the two fast parsers ({@link GnmicEventScanner}, {@link GnmicEventFastPath})
 * read it: the members seen so far, the duplicate checks they share and the sample it makes. Every
 * {@code false} or {@code null} answer means "leave the record to the tree parser", which keeps the
 * last of duplicate members and words the errors; the fast parsers do not mimic either.
 */
final class EventDraft {
    /** Tags read, as bits; 0 for any other tag (ignored, never a duplicate). */
    static final int TARGET = 1;
    static final int SOURCE = 2;
    static final int INTERFACE_NAME = 4;
    static final int INTERFACE_ID = 8;
    static final int QUEUE_NAME = 16;

    private long timestampNs = -1;
    private boolean tags;
    private boolean values;
    private boolean operStatusSeen;
    private int tagsSeen;
    private String target;
    private String source;
    private String interfaceName;
    private String interfaceId;
    private String queue;
    private String operStatus;
    private final Map<Counter, Long> counters = new EnumMap<>(Counter.class);

    /** False for a second timestamp or a negative one. */
    boolean timestamp(long ns) {
        if (timestampNs >= 0 || ns < 0) {
            return false;
        }
        timestampNs = ns;
        return true;
    }

    /** False for a second tags object. */
    boolean tags() {
        boolean first = !tags;
        tags = true;
        return first;
    }

    /** False for a second values object. */
    boolean values() {
        boolean first = !values;
        values = true;
        return first;
    }

    /** Claims a tag before its value is read; false when it came twice. */
    boolean tag(int bit) {
        if ((tagsSeen & bit) != 0) {
            return false;
        }
        tagsSeen |= bit;
        return true;
    }

    /** A tag's string value; an empty one is as good as absent. */
    void tagText(int bit, String text) {
        if (text.isEmpty()) {
            return;
        }
        switch (bit) {
            case TARGET -> target = text;
            case SOURCE -> source = text;
            case INTERFACE_NAME -> interfaceName = text;
            case INTERFACE_ID -> interfaceId = text;
            case QUEUE_NAME -> queue = text;
            default -> { }
        }
    }

    /** False when the counter came twice. */
    boolean counter(Counter c, long value) {
        return counters.putIfAbsent(c, value) == null;
    }

    /** Claims oper-status before its value is read; false when it came twice. */
    boolean claimOperStatus() {
        boolean first = !operStatusSeen;
        operStatusSeen = true;
        return first;
    }

    void operStatus(String status) {
        operStatus = status;
    }

    /** The sample, or null when tags, values, the timestamp, the target or the interface is missing. */
    InterfaceSample sample() {
        String t = target != null ? target : source;
        String i = interfaceName != null ? interfaceName : interfaceId;
        if (!tags || !values || timestampNs < 0 || t == null || i == null) {
            return null;
        }
        return new InterfaceSample(t, i, queue, timestampNs, counters, operStatus);
    }
}
