import { describe, expect, it } from 'vitest';
import type { FabricNode } from '../api/types';
import { groupByRole } from './roles';

describe('groupByRole', () => {
  it('groups in tier order, ids in natural order, empty roles left out', () => {
    const nodes: FabricNode[] = [
      { id: 'nic2', role: 'nic' },
      { id: 'leaf10', role: 'leaf' },
      { id: 'spine1', role: 'spine' },
      { id: 'leaf2', role: 'leaf' },
      { id: 'nic1', role: 'nic' },
    ];
    expect(groupByRole(nodes).map((g) => [g.role, g.nodes.map((n) => n.id)])).toEqual([
      ['spine', ['spine1']],
      ['leaf', ['leaf2', 'leaf10']],
      ['nic', ['nic1', 'nic2']],
    ]);
  });
});
