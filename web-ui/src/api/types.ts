// Types of the controller's GET /fabric answer: contracts/schemas/fabric-snapshot.schema.json,
// whose `fabric` member is a fabric file (contracts/fabric.schema.json, schemaVersion 1).

export const ROLES = ['superspine', 'spine', 'leaf', 'router', 'nic'] as const;
export type Role = (typeof ROLES)[number];

export interface FabricNode {
  id: string;
  role: Role;
  name?: string;
  pod?: number;
  group?: number;
  plane?: number;
  rail?: number;
  server?: string;
  srv6NodeId?: number;
  address?: string;
}

export interface Endpoint {
  node: string;
  port?: string;
}

export interface FabricLink {
  id: string;
  a: Endpoint;
  b: Endpoint;
  capacityGbps: number;
  latencyNs?: number;
}

export interface Fabric {
  schemaVersion: 1;
  id: string;
  name?: string;
  family?: string;
  srv6?: { block: string };
  tenants?: string[];
  params?: Record<string, unknown>;
  nodes: FabricNode[];
  links: FabricLink[];
}

export type LinkState = 'up' | 'down' | 'drained';

export interface FabricSnapshot {
  schemaVersion: 1;
  fabricId: string;
  /** Monotonic per fabric, below 2^53, so a JS number holds it exactly. */
  version: number;
  generatedAt: string;
  fabric: Fabric;
  /** SIDs, addresses and EV tables (fabric-plan.schema.json); the foundation UI does not read it yet. */
  plan: unknown;
  linkStates: Record<string, LinkState>;
}
