package io.weft.controller.onos;

/** The answer to a drain: the link's state, in which snapshot version, and whether anything changed. */
public final class LinkStateChange {
    private final String linkId;
    private final String state;
    private final long version;
    private final boolean changed;

    public LinkStateChange(String linkId, String state, long version, boolean changed) {
        this.linkId = linkId;
        this.state = state;
        this.version = version;
        this.changed = changed;
    }

    public String linkId() {
        return linkId;
    }

    /** up, drained or down (the snapshot's link-state names). */
    public String state() {
        return state;
    }

    public long version() {
        return version;
    }

    public boolean changed() {
        return changed;
    }
}
