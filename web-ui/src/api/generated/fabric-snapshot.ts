// Generated from contracts/schemas/fabric-snapshot.schema.json by `npm run gen:schemas`: do not edit.

/**
 * Everything a consumer needs to steer and observe flows on one fabric: the topology, its SRv6/EV plan, the state of every link and, when the controller provisions switches, of every switch. Published whole (compacted topic, key = fabricId); version grows by one or more with every publication, so consumers drop anything older than what they hold.
 */
export interface FabricSnapshot {
schemaVersion: 1
/**
 * Identifier of a fabric, tenant, node or link. No '>' (it separates link id and direction in arc keys), no '|' (SONiC key separator), no whitespace.
 */
fabricId: string
/**
 * Monotonic int64 per fabric (kept below 2^53 so every JSON reader holds it exactly).
 */
version: number
generatedAt: string
fabric: Fabric
plan: FabricPlan
/**
 * State of every link of the fabric by link id. down: failed or admin down; drained: up but to be avoided by new placements.
 */
linkStates: {
[k: string]: "up" | "down" | "drained"
}
/**
 * Optional: how far each switch with a gNMI endpoint is provisioned, by node id (absent when the controller configures no switch). in-sync: the switch confirmed the plan's intent by Get; pending: a newer intent is on its way; unreachable: no gNMI answer, retried; rejected: the switch refused (lastError has its text).
 */
deviceStates?: {
[k: string]: {
state: ("in-sync" | "pending" | "unreachable" | "rejected")
lastError?: string
lastSyncAt?: string
}
}
}
/**
 * A fabric: switches, NICs and the links between them (schemaVersion 1). Mirrors what io.weft.fabric.FabricJson reads: unknown fields are rejected everywhere. Structural checks across objects (link ends name existing nodes, unique ids, id collisions) are the fabric validator's job, not the schema's.
 */
export interface Fabric {
$schema?: string
schemaVersion: 1
/**
 * Identifier of a fabric, tenant, node or link. No '>' (it separates link id and direction in arc keys), no '|' (SONiC key separator), no whitespace.
 */
id: string
name?: string
/**
 * Generator family that produced the file; hand-written files use custom.
 */
family?: ("leaf-spine" | "fat-tree" | "rail" | "dragonfly" | "slimfly" | "custom")
srv6?: {
/**
 * Fabric-wide uSID block, an IPv6 /32 such as fcbb:bb00::/32 (bits after the /32 zero). Default fcbb:bb00::/32.
 */
block: string
}
/**
 * Tenant names, one VRF each. Absent or empty means ["default"].
 * 
 * Items: Identifier of a fabric, tenant, node or link. No '>' (it separates link id and direction in arc keys), no '|' (SONiC key separator), no whitespace.
 */
tenants?: string[]
/**
 * Generator parameters, kept for the record (family-specific, informational).
 */
params?: {

}
nodes: Node[]
links: Link[]
}
export interface Node {
/**
 * Identifier of a fabric, tenant, node or link. No '>' (it separates link id and direction in arc keys), no '|' (SONiC key separator), no whitespace.
 */
id: string
name?: string
role: ("nic" | "leaf" | "spine" | "superspine" | "router")
pod?: number
group?: number
plane?: number
rail?: number
/**
 * Identifier of a fabric, tenant, node or link. No '>' (it separates link id and direction in arc keys), no '|' (SONiC key separator), no whitespace.
 */
server?: string
/**
 * Explicit 16-bit uN id (0x0001-0xDFFF; 0xE000 and up are per-node function ids); absent lets the plan allocate one.
 */
srv6NodeId?: number
/**
 * Explicit IPv6 address (NIC address or switch loopback), no prefix length.
 */
address?: string
gnmi?: Gnmi
}
/**
 * Where the controller configures this switch over gNMI (switches only). Plaintext unless tls is true; credentials come from the controller's environment variables named here, never from the file.
 */
export interface Gnmi {
/**
 * Host name or IP address of the switch's gNMI server.
 */
address: string
/**
 * gNMI port (default 9339, gNMI's IANA port).
 */
port?: number
/**
 * TLS on (default false).
 */
tls?: boolean
/**
 * PEM CA certificate the switch's certificate must chain to (tls only; default: the JVM's trust store).
 */
caFile?: string
/**
 * PEM client certificate for mutual TLS (with keyFile).
 */
certFile?: string
/**
 * PEM (PKCS#8) client key for mutual TLS (with certFile).
 */
keyFile?: string
/**
 * Environment variable holding the username, sent as gRPC metadata "username".
 */
usernameEnv?: string
/**
 * Environment variable holding the password, sent as gRPC metadata "password".
 */
passwordEnv?: string
}
/**
 * A full-duplex link; each direction has the full capacity.
 */
export interface Link {
/**
 * Identifier of a fabric, tenant, node or link. No '>' (it separates link id and direction in arc keys), no '|' (SONiC key separator), no whitespace.
 */
id: string
a: Endpoint
b: Endpoint
capacityGbps: number
latencyNs?: number
}
export interface Endpoint {
/**
 * Identifier of a fabric, tenant, node or link. No '>' (it separates link id and direction in arc keys), no '|' (SONiC key separator), no whitespace.
 */
node: string
/**
 * Interface name on the device (eth1, Ethernet0, et-0/0/1).
 */
port: string
}
/**
 * Every value the planner allocated for one fabric: uN ids and locators, decap (uDT46) and uA functions, tenant VRFs, EV table members in published order, NIC prefixes and addresses, loopbacks, NIC home links. Consumers rebuild the plan from these values as written (io.weft.plan.SnapshotJson.planFromTree), never by re-running the allocation. See contracts/plan.md for the semantics.
 */
export interface FabricPlan {
/**
 * The uSID block, canonical RFC 5952 text with /32 (e.g. fcbb:bb00::/32).
 */
block: string
/**
 * One entry per tenant of the fabric, in fabric order.
 */
tenants: {
/**
 * Identifier of a fabric, tenant, node or link. No '>' (it separates link id and direction in arc keys), no '|' (SONiC key separator), no whitespace.
 */
name: string
/**
 * Stable across re-plans.
 */
index: number
/**
 * VRF name on devices: Vrf-<name>, or Vrf<table> when that would exceed 15 characters.
 */
vrf: string
/**
 * Routing table id: 100 + index.
 */
table: number
/**
 * uDT46 function: 0xE000 + index.
 */
decapFunction: number
}[]
/**
 * One entry per switch (every non-NIC node), in fabric file order.
 */
switches: Switch[]
/**
 * One entry per NIC, in fabric file order.
 */
nics: {
/**
 * Identifier of a fabric, tenant, node or link. No '>' (it separates link id and direction in arc keys), no '|' (SONiC key separator), no whitespace.
 */
id: string
address: string
/**
 * One direction of a link: "<linkId>><toNodeId>".
 */
attachment: string
}[]
}
export interface Switch {
/**
 * Identifier of a fabric, tenant, node or link. No '>' (it separates link id and direction in arc keys), no '|' (SONiC key separator), no whitespace.
 */
id: string
/**
 * 16-bit uN id, global range 0x0001-0xDFFF.
 */
nodeId: number
/**
 * block + nodeId, /48.
 */
locator: string
/**
 * /128 loopback, without the length.
 */
loopback: string
/**
 * /64 of the NICs whose home is this switch; absent when none.
 */
nicPrefix?: string
/**
 * uDT46 SIDs, one per tenant; present on every switch linked to a NIC.
 */
decap?: {
/**
 * Identifier of a fabric, tenant, node or link. No '>' (it separates link id and direction in arc keys), no '|' (SONiC key separator), no whitespace.
 */
tenant: string
/**
 * A local (LIB) function value, 0xE000-0xFFFF.
 */
function: number
/**
 * locator + function, /64.
 */
sid: string
}[]
/**
 * uA SIDs for links in a parallel group towards one neighbour; absent when none.
 */
ua?: {
/**
 * Identifier of a fabric, tenant, node or link. No '>' (it separates link id and direction in arc keys), no '|' (SONiC key separator), no whitespace.
 */
link: string
/**
 * A local (LIB) function value, 0xE000-0xFFFF.
 */
function: number
sid: string
}[]
/**
 * EV table members in published order (member index = position). stage1 is indexed by EV1 (high byte) mod size, stage2 by EV2 (low byte) mod size.
 */
ev: {
/**
 * @maxItems 256
 * 
 * Items: One direction of a link: "<linkId>><toNodeId>".
 */
stage1: string[]
/**
 * @maxItems 256
 * 
 * Items: One direction of a link: "<linkId>><toNodeId>".
 */
stage2: string[]
}
}
