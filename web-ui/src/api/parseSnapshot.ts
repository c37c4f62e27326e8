import { LINK_STATES, ROLES, type Fabric, type FabricSnapshot } from './types';

/** A controller answer that does not match the snapshot contract; the message names the field. */
export class SnapshotFormatError extends Error {
  override name = 'SnapshotFormatError';
}

type Json = Record<string, unknown>;

function fail(path: string, problem: string): never {
  throw new SnapshotFormatError(`${path}: ${problem}`);
}

function object(value: unknown, path: string): Json {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(path, 'must be an object');
  return value as Json;
}

function array(value: unknown, path: string): unknown[] {
  if (!Array.isArray(value)) fail(path, 'must be an array');
  return value;
}

function string(value: unknown, path: string): string {
  if (typeof value !== 'string' || value === '') fail(path, 'must be a non-empty string');
  return value;
}

function number(value: unknown, path: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) fail(path, 'must be a number');
  return value;
}

function optionalNumber(o: Json, key: string, path: string): void {
  if (o[key] !== undefined) number(o[key], `${path}.${key}`);
}

/**
 * Checks the parts of a snapshot the UI relies on and returns it typed. It checks, it does not
 * repair: anything wrong is reported with its JSON path so the operator can find it.
 */
export function parseSnapshot(body: unknown): FabricSnapshot {
  const s = object(body, '$');
  if (s.schemaVersion !== 1) fail('$.schemaVersion', `must be 1, got ${JSON.stringify(s.schemaVersion)}`);
  string(s.fabricId, '$.fabricId');
  const version = number(s.version, '$.version');
  if (!Number.isSafeInteger(version) || version < 0) fail('$.version', 'must be a non-negative integer below 2^53');
  string(s.generatedAt, '$.generatedAt');
  checkFabric(s.fabric);
  const states = object(s.linkStates, '$.linkStates');
  for (const [id, state] of Object.entries(states)) {
    if (typeof state !== 'string' || !(LINK_STATES as readonly string[]).includes(state)) {
      fail(`$.linkStates.${id}`, `must be one of ${LINK_STATES.join(', ')}`);
    }
  }
  return s as unknown as FabricSnapshot;
}

function checkFabric(value: unknown): asserts value is Fabric {
  const f = object(value, '$.fabric');
  string(f.id, '$.fabric.id');
  const ids = new Set<string>();
  array(f.nodes, '$.fabric.nodes').forEach((raw, i) => {
    const path = `$.fabric.nodes[${i}]`;
    const n = object(raw, path);
    const id = string(n.id, `${path}.id`);
    if (ids.has(id)) fail(`${path}.id`, `duplicate node id "${id}"`);
    ids.add(id);
    if (typeof n.role !== 'string' || !(ROLES as readonly string[]).includes(n.role)) {
      fail(`${path}.role`, `must be one of ${ROLES.join(', ')}`);
    }
    for (const key of ['pod', 'group', 'plane', 'rail', 'srv6NodeId']) optionalNumber(n, key, path);
  });
  array(f.links, '$.fabric.links').forEach((raw, i) => {
    const path = `$.fabric.links[${i}]`;
    const l = object(raw, path);
    string(l.id, `${path}.id`);
    for (const end of ['a', 'b']) {
      const node = string(object(l[end], `${path}.${end}`).node, `${path}.${end}.node`);
      if (!ids.has(node)) fail(`${path}.${end}.node`, `unknown node "${node}"`);
    }
    if (number(l.capacityGbps, `${path}.capacityGbps`) <= 0) fail(`${path}.capacityGbps`, 'must be positive');
    optionalNumber(l, 'latencyNs', path);
  });
}
