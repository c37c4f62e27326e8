package io.weft.scheduler.fabric;

/**
 * Published (after the change returned, outside the writer lock) when the writer applied new link
 * states or a new fabric to its placement: a link-down, drain or link-up pass, or every job placed
 * again on a new topology. Listeners that re-optimise the whole placement start from here.
 *
 * @param reason what the pass did, as recorded in the path history (e.g. {@code link-down:<link>})
 */
public record LinkPassApplied(String reason) {
}
