// Generated from contracts/schemas/hotspot-event.schema.json by `npm run gen:schemas`: do not edit.

/**
 * A change of state of one direction of one link, as decided by the telemetry collector: it became hot, it cooled down, it went down or came back up. The measurements are those of the sample that triggered the event; they are null for link-down / link-up when no rate was known.
 */
export interface HotspotEvent {
schemaVersion: 1
/**
 * Unique id (a UUID) so that consumers can drop redeliveries.
 */
eventId: string
kind: ("hotspot-start" | "hotspot-end" | "link-down" | "link-up")
/**
 * Identifier of a fabric, tenant, node or link. No '>' (it separates link id and direction in arc keys), no '|' (SONiC key separator), no whitespace.
 */
linkId: string
/**
 * Identifier of a fabric, tenant, node or link. No '>' (it separates link id and direction in arc keys), no '|' (SONiC key separator), no whitespace.
 */
direction: string
/**
 * Unsigned 64-bit integer as a decimal string (0 .. 18446744073709551615).
 */
sampleTimestampNs: string
detectedAt: string
/**
 * Rate / capacity of this direction, 0..1 (can exceed 1 slightly from sampling skew).
 */
utilisation: (number | null)
/**
 * Dropped / offered packets of this direction, 0..1.
 */
dropRate: (number | null)
/**
 * ECN-marked / transmitted packets, 0..1.
 */
ecnFraction: (number | null)
/**
 * The utilisation threshold that was crossed.
 */
threshold: (number | null)
}
