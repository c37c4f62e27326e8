/**
 * Closed-loop re-placement: telemetry hotspots and link failures move flows within one statistics
 * interval, after Reunion's discipline.
 *
 * <ul>
 *   <li>{@link io.weft.scheduler.reroute.ReunionPolicy}: pure decision over a
 *       {@link io.weft.scheduler.reroute.PlacementView} (a copy of the engine's reservations):
 *       at most k flows per hot link direction and interval, onto paths whose new arcs stay within
 *       t elephants counting every move of the pass (no herd), never onto a hot arc, never a flow
 *       twice per interval; on link-down, every flow on the link at once.</li>
 *   <li>{@link io.weft.scheduler.reroute.HotspotListener}: the loop, on the writer replica only. Its
 *       parts: {@code HotspotFeed} (the Kafka thread: consumes {@code weft.hotspots} in its own group
 *       as one static member, parses, hands over), {@code SeenEvents} (drops redeliveries),
 *       {@code ActiveHotspots} (the hot set and its arcs), {@code MoveBudget} (k per direction and one
 *       move per flow per interval), {@code MovePins} (pins the moves in the engine, undoes them) and
 *       {@code PassTimes} (the timing chain). A pass runs as one change of the single writer
 *       ({@link io.weft.scheduler.fabric.Placement#write}): the policy, the pins, and the record
 *       through {@link io.weft.scheduler.job.PathLedger} (new NIC versions, path history with
 *       {@code hotspot:<eventId>} or {@code link-down:<linkId>} and timings, a "flows-replaced"
 *       event) in one transaction, the pins undone if it fails.</li>
 *   <li>Link state between a link-down event and the controller's snapshot:
 *       {@link io.weft.scheduler.reroute.DownLinks} keeps the links down by event that the engine's
 *       index does not have down yet; every pass's view excludes them and the pin refuses them at
 *       the commit, so no pass puts a flow back on a link it was just moved off. Forgotten on
 *       link-up or once the index has the link down.</li>
 *   <li>Timings: {@code weft_loop_sample_to_event_seconds}, {@code weft_loop_event_to_commit_seconds},
 *       {@code weft_loop_commit_to_wake_seconds}, {@code weft_loop_event_to_wake_seconds}; each pass's
 *       "loop-timings" event also splits the service's share (loop-thread queue, lock wait, decide,
 *       pin, record, in µs).</li>
 *   <li>Settings: {@code weft.reroute.{enabled,k,t,interval-ms,hotspots-topic,group-id}}.</li>
 * </ul>
 */
package io.weft.scheduler.reroute;
