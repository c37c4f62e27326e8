import type { FabricNode } from '../../api/types';
import { groupByRole, ROLE_COLOURS, ROLE_LABELS } from '../../domain/roles';
import './RolePanel.css';

interface Props {
  nodes: readonly FabricNode[];
}

/** The fabric's nodes by role, with counts; long lists stay folded. */
export function RolePanel({ nodes }: Props) {
  const groups = groupByRole(nodes);
  return (
    <aside className="role-panel" aria-label="Nodes by role">
      <h2>Nodes ({nodes.length})</h2>
      {groups.map(({ role, nodes: members }) => (
        <details key={role} open={members.length <= 16}>
          <summary>
            <span className="role-panel__swatch" style={{ background: ROLE_COLOURS[role] }} />
            {ROLE_LABELS[role]} <span className="role-panel__count">{members.length}</span>
          </summary>
          <ul>
            {members.map((n) => (
              <li key={n.id} title={describe(n)}>
                {n.name ?? n.id}
              </li>
            ))}
          </ul>
        </details>
      ))}
    </aside>
  );
}

function describe(n: FabricNode): string {
  const facts: string[] = [n.id];
  if (n.srv6NodeId !== undefined) facts.push(`uN ${n.srv6NodeId.toString(16)}`);
  for (const key of ['pod', 'group', 'plane', 'rail'] as const) {
    if (n[key] !== undefined) facts.push(`${key} ${n[key]}`);
  }
  if (n.server) facts.push(`server ${n.server}`);
  if (n.address) facts.push(n.address);
  return facts.join(' · ');
}
