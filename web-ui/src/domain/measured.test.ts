import { describe, expect, it } from 'vitest';
import type { LinkLoad } from '../api/collectorApi';
import type { Fabric } from '../api/types';
import { readContract } from '../testing/contracts';
import { linkLoads } from './heat';
import { measuredLoads } from './measured';

const fabric = readContract<Fabric>('examples/leaf-spine-2x2.json');

const load = (linkId: string, toNode: string, utilisation: number, extra: Partial<LinkLoad> = {}): LinkLoad => ({
  schemaVersion: 1,
  fabricId: fabric.id,
  linkId,
  toNode,
  timestampNs: '1',
  rateGbps: 400 * utilisation,
  capacityGbps: 400,
  utilisation,
  dropRate: null,
  ecnFraction: null,
  operStatus: 'UP',
  hot: false,
  ...extra,
});

describe('measuredLoads', () => {
  it('keys each measured direction by its sending end, with drops, ECN and the reserved elephants', () => {
    const live = new Map([
      ['leaf1-spine1>spine1', load('leaf1-spine1', 'spine1', 0.95, { dropRate: 0.02, ecnFraction: 0.1 })],
      ['leaf1-spine1>leaf1', load('leaf1-spine1', 'leaf1', 0.1, { operStatus: 'DOWN' })],
    ]);
    const reserved = linkLoads([
      { link: 'leaf1-spine1', from: 'leaf1', to: 'spine1', reservedGbps: 200, capacityGbps: 400, elephants: 2 },
    ]);
    const m = measuredLoads(fabric.links, live, reserved);
    const up = m.get('leaf1-spine1')?.get('leaf1');
    expect(up).toMatchObject({
      from: 'leaf1',
      to: 'spine1',
      utilisation: 0.95,
      dropRate: 0.02,
      ecnFraction: 0.1,
      elephants: 2,
      reservedGbps: 200,
    });
    expect(up?.rateGbps).toBeCloseTo(380);
    expect(m.get('leaf1-spine1')?.get('spine1')).toMatchObject({ to: 'leaf1', elephants: 0, operDown: true });
  });

  it('leaves out loads of links or ends the fabric does not have', () => {
    const live = new Map([
      ['gone>spine1', load('gone', 'spine1', 0.5)],
      ['leaf1-spine1>spine9', load('leaf1-spine1', 'spine9', 0.5)],
    ]);
    expect(measuredLoads(fabric.links, live).size).toBe(0);
  });
});
