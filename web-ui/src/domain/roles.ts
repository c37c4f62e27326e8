import { ROLES, type FabricNode, type Role } from '../api/types';

/** One colour per role, shared by the graph and the side panel so the two read together. */
export const ROLE_COLOURS: Record<Role, string> = {
  superspine: '#7b3fa0',
  spine: '#1f6fb2',
  leaf: '#2a9d8f',
  router: '#d08a1c',
  nic: '#7d8590',
};

export const ROLE_LABELS: Record<Role, string> = {
  superspine: 'Super-spines',
  spine: 'Spines',
  leaf: 'Leaves',
  router: 'Routers',
  nic: 'NICs',
};

export interface RoleGroup {
  role: Role;
  nodes: FabricNode[];
}

/** Nodes grouped by role, in tier order (top of the fabric first), ids in natural order; empty roles left out. */
export function groupByRole(nodes: readonly FabricNode[]): RoleGroup[] {
  return ROLES.map((role) => ({
    role,
    nodes: nodes.filter((n) => n.role === role).sort((x, y) => naturalCompare(x.id, y.id)),
  })).filter((g) => g.nodes.length > 0);
}

const collator = new Intl.Collator('en', { numeric: true });

/** "leaf2" before "leaf10". */
export function naturalCompare(a: string, b: string): number {
  return collator.compare(a, b);
}
