import { describe, expect, it } from 'vitest';
import type { Fabric, FabricSnapshot } from '../api/types';
import { readContract } from '../testing/contracts';
import { searchNodes, switchDetail } from './switchDetail';

const fabric = readContract<Fabric>('examples/leaf-spine-2x2.json');
const snapshot = {
  schemaVersion: 1,
  fabricId: fabric.id,
  version: 3,
  generatedAt: '2026-11-25T12:00:00Z',
  fabric,
  linkStates: {},
  plan: {
    block: 'fcbb:bb00::/32',
    tenants: [],
    nics: [],
    switches: [
      {
        id: 'leaf1',
        nodeId: 17,
        locator: 'fcbb:bb00:11::/48',
        loopback: 'fc00::11',
        nicPrefix: '2001:db8:11::/64',
        decap: [{ tenant: 'default', function: 57344, sid: 'fcbb:bb00:11:e000::/64' }],
        ua: [{ link: 'leaf1-spine1', function: 57600, sid: 'fcbb:bb00:11:e100::/64' }],
        ev: { stage1: ['leaf1-spine1>spine1', 'leaf1-spine2>spine2'], stage2: [] },
      },
    ],
  },
  deviceStates: { leaf1: { state: 'rejected', lastError: 'bad path' } },
} as unknown as FabricSnapshot;

describe('switchDetail', () => {
  it('reads locator, SIDs, EV tables and the gNMI state of a planned switch', () => {
    const d = switchDetail(snapshot, 'leaf1');
    expect(d).toMatchObject({ id: 'leaf1', role: 'leaf', nodeId: 17, locator: 'fcbb:bb00:11::/48', unplanned: false });
    expect(d?.sids).toEqual([
      { kind: 'uN', sid: 'fcbb:bb00:11::/48', function: 17 },
      { kind: 'uDT46', sid: 'fcbb:bb00:11:e000::/64', function: 57344, of: 'default' },
      { kind: 'uA', sid: 'fcbb:bb00:11:e100::/64', function: 57600, of: 'leaf1-spine1' },
    ]);
    expect(d?.evStage1).toEqual(['leaf1-spine1>spine1', 'leaf1-spine2>spine2']);
    expect(d?.sync).toEqual({ state: 'rejected', lastError: 'bad path', lastSyncAt: undefined });
  });

  it('says when a node has no plan entry or no gNMI state, and null for an unknown id', () => {
    expect(switchDetail(snapshot, 'spine1')).toMatchObject({ unplanned: true, sids: [], sync: null });
    expect(switchDetail(snapshot, 'nope')).toBeNull();
  });
});

describe('searchNodes', () => {
  it('ranks exact, then prefix, then substring matches, numbers in order', () => {
    const ids = ['leaf10', 'leaf2', 'leaf1', 'spine1', 'nic1-leaf'];
    expect(searchNodes(ids, 'LEAF1')).toEqual(['leaf1', 'leaf10']);
    expect(searchNodes(ids, 'leaf')).toEqual(['leaf1', 'leaf2', 'leaf10', 'nic1-leaf']);
    expect(searchNodes(ids, '  ')).toEqual([]);
  });
});
