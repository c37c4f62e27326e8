package io.weft.contracts;

import java.util.Objects;

/**
 * One direction of one link, written {@code linkId>toNode}: the key of {@code weft.links.load}, the
 * identity of a hot direction in {@code weft.hotspots} ({@code linkId} + {@code direction}) and of an
 * arc in the planning core. Identifiers never contain {@code >} (fabric.schema.json#/$defs/id), so the
 * text form is unambiguous.
 *
 * <p>A final value class rather than a record: this jar is Java 11 bytecode because the ONOS 2.7 app
 * (Java 11) embeds it.
 */
public final class DirectionKey {
    /** Joins the link id and the node the direction points to. */
    public static final char SEPARATOR = '>';

    private final String linkId;
    private final String toNode;

    private DirectionKey(String linkId, String toNode) {
        this.linkId = Objects.requireNonNull(linkId, "linkId");
        this.toNode = Objects.requireNonNull(toNode, "toNode");
    }

    /** The direction of {@code linkId} that points to {@code toNode}. */
    public static DirectionKey of(String linkId, String toNode) {
        return new DirectionKey(linkId, toNode);
    }

    /** The text form {@code linkId>toNode} without building a key object (hot paths). */
    public static String text(String linkId, String toNode) {
        return linkId + SEPARATOR + toNode;
    }

    /** Reads {@code linkId>toNode}; throws {@link ContractException} on anything else. */
    public static DirectionKey parse(String text) {
        int at = text == null ? -1 : text.indexOf(SEPARATOR);
        if (at <= 0 || at == text.length() - 1 || text.indexOf(SEPARATOR, at + 1) >= 0) {
            throw new ContractException("$", "a direction key is linkId>toNode (got " + Strict.quote(text) + ")");
        }
        return new DirectionKey(text.substring(0, at), text.substring(at + 1));
    }

    public String linkId() {
        return linkId;
    }

    public String toNode() {
        return toNode;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DirectionKey && ((DirectionKey) o).linkId.equals(linkId)
                && ((DirectionKey) o).toNode.equals(toNode);
    }

    @Override
    public int hashCode() {
        return linkId.hashCode() * 31 + toNode.hashCode();
    }

    /** {@code linkId>toNode}. */
    @Override
    public String toString() {
        return text(linkId, toNode);
    }
}
