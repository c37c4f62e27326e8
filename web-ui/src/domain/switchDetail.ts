// What the switch detail shows, read from the controller's snapshot: the switch's plan entry
// (locator, uN id, loopback, NIC prefix, uDT46 and uA SIDs, EV tables; contracts/schemas/
// fabric-plan.schema.json) and its gNMI sync state (the snapshot's deviceStates). The snapshot's
// plan is typed loosely (the UI reads only these parts), so every read here checks its shape.
import type { FabricSnapshot } from '../api/types';

export interface Sid {
  kind: 'uN' | 'uDT46' | 'uA';
  sid: string;
  function?: number;
  /** The tenant (uDT46) or link (uA) it belongs to. */
  of?: string;
}

export interface DeviceSync {
  state: string;
  lastError?: string;
  lastSyncAt?: string;
}

export interface SwitchDetail {
  id: string;
  role: string;
  nodeId?: number;
  locator?: string;
  loopback?: string;
  nicPrefix?: string;
  sids: Sid[];
  /** EV table members ('<link>><to node>') in published order: member index = position. */
  evStage1: string[];
  evStage2: string[];
  /** null: the controller provisions no gNMI endpoint for this switch (or reported none). */
  sync: DeviceSync | null;
  /** The switch has no entry in the plan (a NIC, or a plan the UI could not read). */
  unplanned: boolean;
}

type Json = Record<string, unknown>;
const obj = (v: unknown): Json | null =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : null;
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);

export function switchDetail(snapshot: FabricSnapshot, nodeId: string): SwitchDetail | null {
  const node = snapshot.fabric.nodes.find((n) => n.id === nodeId);
  if (!node) return null;
  const plan = obj(snapshot.plan);
  const entry =
    list(plan?.switches)
      .map(obj)
      .find((s) => s?.id === nodeId) ?? null;
  const sids: Sid[] = [];
  const locator = str(entry?.locator);
  if (locator) sids.push({ kind: 'uN', sid: locator, function: num(entry?.nodeId) });
  for (const d of list(entry?.decap).map(obj)) {
    const sid = str(d?.sid);
    if (sid) sids.push({ kind: 'uDT46', sid, function: num(d?.function), of: str(d?.tenant) });
  }
  for (const a of list(entry?.ua).map(obj)) {
    const sid = str(a?.sid);
    if (sid) sids.push({ kind: 'uA', sid, function: num(a?.function), of: str(a?.link) });
  }
  const ev = obj(entry?.ev);
  const states = obj((snapshot as unknown as Json).deviceStates);
  const dev = obj(states?.[nodeId]);
  const state = str(dev?.state);
  return {
    id: nodeId,
    role: node.role,
    nodeId: num(entry?.nodeId),
    locator,
    loopback: str(entry?.loopback),
    nicPrefix: str(entry?.nicPrefix),
    sids,
    evStage1: list(ev?.stage1).filter((m): m is string => typeof m === 'string'),
    evStage2: list(ev?.stage2).filter((m): m is string => typeof m === 'string'),
    sync: state ? { state, lastError: str(dev?.lastError), lastSyncAt: str(dev?.lastSyncAt) } : null,
    unplanned: entry === null,
  };
}

/** Node ids matching a search, exact match first, then prefix, then substring; case-insensitive. */
export function searchNodes(ids: readonly string[], query: string, limit = 20): string[] {
  const q = query.trim().toLowerCase();
  if (q === '') return [];
  const rank = (id: string) => {
    const l = id.toLowerCase();
    return l === q ? 0 : l.startsWith(q) ? 1 : l.includes(q) ? 2 : 3;
  };
  return ids
    .map((id) => ({ id, r: rank(id) }))
    .filter((x) => x.r < 3)
    .sort((a, b) => a.r - b.r || a.id.localeCompare(b.id, undefined, { numeric: true }))
    .slice(0, limit)
    .map((x) => x.id);
}
