package io.weft.fabric;

import java.util.Objects;

import io.weft.contracts.DirectionKey;

/**
 * One direction of a link: traffic leaving {@code from} over {@code link}. Paths are sequences of
 * arcs; link loads are kept per arc because the two directions of a link are independent.
 */
public final class Arc {
    private final Link link;
    private final String from;
    private final String to;

    public Arc(Link link, String from) {
        this.link = Objects.requireNonNull(link, "link");
        this.from = from;
        this.to = link.otherEnd(from).node();
    }

    public Link link() {
        return link;
    }

    public String from() {
        return from;
    }

    public String to() {
        return to;
    }

    /** The egress port name on {@code from}. */
    public String fromPort() {
        return link.endOf(from).port();
    }

    /** "linkId>toNode" ({@link DirectionKey}): a stable, readable key for the direction. */
    public String key() {
        return DirectionKey.text(link.id(), to);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Arc && ((Arc) o).link.id().equals(link.id()) && ((Arc) o).from.equals(from);
    }

    @Override
    public int hashCode() {
        return link.id().hashCode() * 31 + from.hashCode();
    }

    @Override
    public String toString() {
        return from + " -[" + link.id() + "]-> " + to;
    }
}
