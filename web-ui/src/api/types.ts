// Types of the controller's GET /fabric answer (contracts/schemas/fabric-snapshot.schema.json, whose
// `fabric` member is a fabric file, contracts/fabric.schema.json): generated from the schemas
// (`npm run gen:schemas`, src/api/generated/); only names are given here, no type is re-typed.
import type { FabricSnapshot, Link, Node } from './generated/fabric-snapshot';

export type { Endpoint, Fabric, FabricPlan, FabricSnapshot } from './generated/fabric-snapshot';
export type FabricNode = Node;
export type FabricLink = Link;
export type Role = FabricNode['role'];
export type LinkState = FabricSnapshot['linkStates'][string];

/** Every role, in the order the dashboard lists them; the type check keeps it to the schema's roles. */
export const ROLES = ['superspine', 'spine', 'leaf', 'router', 'nic'] as const satisfies readonly Role[];

/** Every link state of the schema, for the reader's check. */
export const LINK_STATES = ['up', 'down', 'drained'] as const satisfies readonly LinkState[];

// Both lists name every member of their union: adding one to the schema fails the build here.
type Missing<All, Listed> = [Exclude<All, Listed>] extends [never] ? true : Exclude<All, Listed>;
export const ROLES_COMPLETE: Missing<Role, (typeof ROLES)[number]> = true;
export const LINK_STATES_COMPLETE: Missing<LinkState, (typeof LINK_STATES)[number]> = true;
