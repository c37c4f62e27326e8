// Generated from contracts/schemas/link-load.schema.json by `npm run gen:schemas`: do not edit.

/**
 * Latest measured load of one direction of one link, for the UI heat map. Compacted: key = linkId + ">" + toNode (Arc.key()); a null value (tombstone) removes a link that left the fabric.
 */
export interface LinkLoad {
schemaVersion: 1
/**
 * Identifier of a fabric, tenant, node or link. No '>' (it separates link id and direction in arc keys), no '|' (SONiC key separator), no whitespace.
 */
fabricId: string
/**
 * Identifier of a fabric, tenant, node or link. No '>' (it separates link id and direction in arc keys), no '|' (SONiC key separator), no whitespace.
 */
linkId: string
/**
 * Identifier of a fabric, tenant, node or link. No '>' (it separates link id and direction in arc keys), no '|' (SONiC key separator), no whitespace.
 */
toNode: string
/**
 * Unsigned 64-bit integer as a decimal string (0 .. 18446744073709551615).
 */
timestampNs: string
rateGbps: number
capacityGbps: number
utilisation: number
dropRate: (number | null)
ecnFraction: (number | null)
operStatus: ("UP" | "DOWN" | null)
/**
 * True between a hotspot-start and its hotspot-end.
 */
hot: boolean
}
