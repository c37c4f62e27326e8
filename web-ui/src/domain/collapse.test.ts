import { describe, expect, it } from 'vitest';
import type { Fabric } from '../api/types';
import { readContract } from '../testing/contracts';
import { collapseDirections, collapseFabric, collapseLinkIds, collapseLoads, groupKey } from './collapse';
import { toGraphElements } from './graph';
import { linkLoads } from './heat';

/** A 2-pod Clos: per pod 2 leaves, 1 spine (plane 0), 1 NIC per leaf; one super-spine plane of 1. */
const clos: Fabric = {
  schemaVersion: 1,
  id: 'clos',
  nodes: [
    { id: 'ss0', role: 'superspine', plane: 0 },
    ...[0, 1].flatMap((p) => [
      { id: `s${p}`, role: 'spine' as const, pod: p, plane: 0 },
      { id: `l${p}a`, role: 'leaf' as const, pod: p },
      { id: `l${p}b`, role: 'leaf' as const, pod: p },
      { id: `n${p}a`, role: 'nic' as const, pod: p },
      { id: `n${p}b`, role: 'nic' as const, pod: p },
    ]),
  ],
  links: [0, 1].flatMap((p) => [
    { id: `ss0-s${p}`, a: { node: 'ss0', port: 'eth1' }, b: { node: `s${p}`, port: 'eth1' }, capacityGbps: 400 },
    { id: `s${p}-l${p}a`, a: { node: `s${p}`, port: 'eth1' }, b: { node: `l${p}a`, port: 'eth1' }, capacityGbps: 400 },
    { id: `s${p}-l${p}b`, a: { node: `s${p}`, port: 'eth1' }, b: { node: `l${p}b`, port: 'eth1' }, capacityGbps: 400 },
    {
      id: `n${p}a-l${p}a`,
      a: { node: `n${p}a`, port: 'eth1' },
      b: { node: `l${p}a`, port: 'eth1' },
      capacityGbps: 400,
    },
    {
      id: `n${p}b-l${p}b`,
      a: { node: `n${p}b`, port: 'eth1' },
      b: { node: `l${p}b`, port: 'eth1' },
      capacityGbps: 400,
    },
  ]),
};

describe('collapseFabric', () => {
  it('draws each pod and super-spine plane as one node and bundles the links between them', () => {
    const v = collapseFabric(clos, { 'ss0-s0': 'down' }, new Set());
    expect(v.fabric.nodes.map((n) => [n.id, n.role, n.name])).toEqual([
      ['group:plane 0 superspines', 'superspine', 'plane 0 superspines (1)'],
      ['group:pod 0', 'spine', 'pod 0 (5)'],
      ['group:pod 1', 'spine', 'pod 1 (5)'],
    ]);
    expect(v.fabric.links.map((l) => [l.id, l.capacityGbps])).toEqual([
      ['group:group:plane 0 superspines|group:pod 0', 400],
      ['group:group:plane 0 superspines|group:pod 1', 400],
    ]);
    expect(v.linkStates['group:group:plane 0 superspines|group:pod 0']).toBe('down');
    expect(v.drawnLink.has('s0-l0a')).toBe(false); // inside pod 0
    // the layout puts the groups in tiers like any fabric
    const g = toGraphElements(v.fabric, v.linkStates);
    expect(g.nodes.find((n) => n.id === 'group:plane 0 superspines')!.position.y).toBeLessThan(
      g.nodes.find((n) => n.id === 'group:pod 0')!.position.y,
    );
  });

  it('expands a group on demand, keeping the others collapsed', () => {
    const v = collapseFabric(clos, {}, new Set(['pod 1']));
    const ids = v.fabric.nodes.map((n) => n.id);
    expect(ids).toContain('s1');
    expect(ids).toContain('n1a');
    expect(ids).toContain('group:pod 0');
    expect(v.fabric.links.map((l) => l.id)).toEqual([
      'group:group:plane 0 superspines|group:pod 0',
      'group:group:plane 0 superspines|s1',
      's1-l1a',
      's1-l1b',
      'n1a-l1a',
      'n1b-l1b',
    ]);
    expect(collapseFabric(clos, {}, new Set(['pod 0', 'pod 1', 'plane 0 superspines'])).fabric).toMatchObject({
      nodes: clos.nodes,
      links: clos.links,
    });
  });

  it('maps loads (worst direction), hot marks and paths onto the bundles', () => {
    const v = collapseFabric(clos, {}, new Set(['pod 1']));
    const bundle = 'group:group:plane 0 superspines|group:pod 0';
    const loads = collapseLoads(
      linkLoads([
        { link: 'ss0-s0', from: 's0', to: 'ss0', reservedGbps: 100, capacityGbps: 400, utilisation: 0.9, elephants: 2 },
        { link: 's0-l0a', from: 's0', to: 'l0a', reservedGbps: 100, capacityGbps: 400, utilisation: 1, elephants: 1 },
        { link: 's1-l1a', from: 's1', to: 'l1a', reservedGbps: 100, capacityGbps: 400, utilisation: 0.3, elephants: 1 },
      ]),
      v,
    );
    expect(loads.get(bundle)?.get('group:pod 0')).toMatchObject({
      utilisation: 0.9,
      to: 'group:plane 0 superspines',
      elephants: 2,
    });
    expect(loads.get('s1-l1a')?.get('s1')?.utilisation).toBe(0.3);
    expect(loads.size).toBe(2); // the link inside pod 0 is not drawn
    expect([...collapseDirections(new Set(['ss0-s0>ss0', 's1-l1a>l1a', 's0-l0a>l0a']), v)]).toEqual([
      `${bundle}>group:plane 0 superspines`,
      's1-l1a>l1a',
    ]);
    expect([...(collapseLinkIds(new Set(['n0a-l0a', 'ss0-s0', 's1-l1a']), v) ?? [])]).toEqual([bundle, 's1-l1a']);
  });

  it('groups Dragonfly routers by group and leaves small example fabrics alone when all are expanded', () => {
    const df = readContract<Fabric>('examples/dragonfly-tiny.json');
    const routers = df.nodes.filter((n) => n.role === 'router');
    expect(new Set(routers.map(groupKey)).size).toBe(new Set(routers.map((r) => r.group)).size);
    const v = collapseFabric(df, {}, new Set());
    expect(v.fabric.nodes.every((n) => n.id.startsWith('group:'))).toBe(true);
  });
});
