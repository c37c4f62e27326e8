// Typed reads of the telemetry collector (contracts/openapi/telemetry-collector.yaml; port 8083 in
// the demo): hotspot history, link series, and the shapes of its live load stream. Types come from
// the generated file (npm run gen:api). Link loads and hotspot events are checked by the validators
// generated from their schemas (npm run gen:schemas), the envelopes around them here; an error names
// the field. The collector asks for no token.
import type { ErrorObject } from 'ajv';
import { validateHotspotEvent, validateLinkLoad } from './generated/contract-validators';
import type { components } from './generated/telemetry-collector';
import { ApiError, UnauthorizedError, type Fetch } from './schedulerApi';

type Schemas = components['schemas'];
export type LinkLoad = Schemas['LinkLoad'];
export type HotspotEvent = Schemas['HotspotEvent'];
export type LoadSnapshot = Schemas['LoadSnapshot'];
export type LoadDelta = Schemas['LoadDelta'];
export type LinkSeries = Schemas['LinkSeries'];
export type SeriesPoint = Schemas['SeriesPoint'];

export const HOTSPOTS_PATH = '/v1/hotspots';
export const LOAD_PATH = '/v1/links/load';
export const LOAD_STREAM_PATH = '/v1/links/load/stream';

type Json = Record<string, unknown>;

/** A collector answer that does not match its contract; the message names the field. */
export class CollectorFormatError extends Error {
  override name = 'CollectorFormatError';
}

function fail(path: string, problem: string): never {
  throw new CollectorFormatError(`${path}: ${problem}`);
}

function object(v: unknown, path: string): Json {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) fail(path, 'must be an object');
  return v as Json;
}

function str(o: Json, key: string, path: string): string {
  const v = o[key];
  if (typeof v !== 'string' || v === '') fail(`${path}.${key}`, 'must be a non-empty string');
  return v;
}

function num(o: Json, key: string, path: string): number {
  const v = o[key];
  if (typeof v !== 'number' || !Number.isFinite(v)) fail(`${path}.${key}`, 'must be a number');
  return v;
}

function arr(o: Json, key: string, path: string): unknown[] {
  const v = o[key];
  if (!Array.isArray(v)) fail(`${path}.${key}`, 'must be an array');
  return v;
}

function nullableNum(o: Json, key: string, path: string): number | null {
  return o[key] === null || o[key] === undefined ? null : num(o, key, path);
}

/** The first schema violation as '<path>.<field>: <problem>', in the words of the Java readers. */
function violation(path: string, errors: ErrorObject[] | null | undefined): string {
  const e = errors?.[0];
  if (!e) return `${path}: does not match its schema`;
  const at = path + e.instancePath.replace(/\/(\d+)/g, '[$1]').replace(/\//g, '.');
  const params = e.params as { missingProperty?: string; additionalProperty?: string };
  if (e.keyword === 'required') return `${at}.${params.missingProperty ?? '?'}: required`;
  if (e.keyword === 'additionalProperties') return `${at}.${params.additionalProperty ?? '?'}: unknown field`;
  return `${at}: ${e.message ?? e.keyword}`;
}

function parseLoad(raw: unknown, path: string): LinkLoad {
  if (!validateLinkLoad(raw)) throw new CollectorFormatError(violation(path, validateLinkLoad.errors));
  return raw;
}

function position(o: Json, path: string) {
  if (o.schemaVersion !== 1) fail(`${path}.schemaVersion`, 'must be 1');
  const epoch = str(o, 'epoch', path);
  const seq = num(o, 'seq', path);
  const loads = arr(o, 'loads', path).map((l, i) => parseLoad(l, `${path}.loads[${i}]`));
  return { epoch, seq, loads };
}

/** A `snapshot` event or GET /v1/links/load answer. */
export function parseLoadSnapshot(body: unknown): LoadSnapshot {
  const o = object(body, '$');
  return { schemaVersion: 1, ...position(o, '$') };
}

/** A `loads` event: what changed after fromSeq. */
export function parseLoadDelta(body: unknown): LoadDelta {
  const o = object(body, '$');
  const removed = o.removed === undefined ? [] : arr(o, 'removed', '$');
  if (!removed.every((r) => typeof r === 'string')) fail('$.removed', 'must be an array of strings');
  return { schemaVersion: 1, ...position(o, '$'), fromSeq: num(o, 'fromSeq', '$'), removed };
}

/** A hotspot event (weft.hotspots shape), from the stream or the history. */
export function parseHotspotEvent(raw: unknown, path = '$'): HotspotEvent {
  if (!validateHotspotEvent(raw)) throw new CollectorFormatError(violation(path, validateHotspotEvent.errors));
  return raw;
}

async function getJson(fetchFn: Fetch, path: string, signal?: AbortSignal): Promise<Json> {
  const res = await fetchFn(path, { signal, headers: { Accept: 'application/json' } });
  const base = path.split('?')[0] ?? path;
  if (res.status === 401 || res.status === 403) throw new UnauthorizedError(res.status);
  if (!res.ok) {
    let detail = `HTTP ${res.status}`;
    try {
      const p = (await res.json()) as { detail?: unknown };
      if (typeof p.detail === 'string') detail += `: ${p.detail}`;
    } catch {
      // not problem+json: the status says enough
    }
    throw new ApiError(base, res.status, detail);
  }
  try {
    return object(await res.json(), '$');
  } catch (e) {
    throw new ApiError(base, res.status, e instanceof Error ? e.message : String(e));
  }
}

/** Hotspot events of the last `windowMs` (default 1 h), newest first as the collector sends them. */
export async function fetchHotspots(
  fetchFn: Fetch = (...a) => fetch(...a),
  now: Date = new Date(),
  windowMs = 3_600_000,
  signal?: AbortSignal,
): Promise<HotspotEvent[]> {
  const from = new Date(now.getTime() - windowMs).toISOString();
  const body = await getJson(fetchFn, `${HOTSPOTS_PATH}?from=${encodeURIComponent(from)}`, signal);
  if (!Array.isArray(body.events)) throw new ApiError(HOTSPOTS_PATH, 200, 'events: must be an array');
  try {
    return body.events.map((e, i) => parseHotspotEvent(e, `events[${i}]`));
  } catch (e) {
    throw new ApiError(HOTSPOTS_PATH, 200, e instanceof Error ? e.message : String(e));
  }
}

/** 1-second rollups of both directions of a link over the last `windowMs`, oldest first. */
export async function fetchLinkSeries(
  linkId: string,
  fetchFn: Fetch = (...a) => fetch(...a),
  now: Date = new Date(),
  windowMs = 900_000,
  signal?: AbortSignal,
): Promise<LinkSeries> {
  const from = new Date(now.getTime() - windowMs).toISOString();
  const to = new Date(now.getTime() + 1000).toISOString();
  const path = `/v1/links/${encodeURIComponent(linkId)}/series?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`;
  const body = await getJson(fetchFn, path, signal);
  if (!Array.isArray(body.points)) throw new ApiError(`/v1/links/${linkId}/series`, 200, 'points: must be an array');
  const points = body.points.map((raw, i) => {
    const p = object(raw, `points[${i}]`);
    return {
      ...(p as unknown as SeriesPoint),
      toNode: str(p, 'toNode', `points[${i}]`),
      second: str(p, 'second', `points[${i}]`),
      utilisationAvg: num(p, 'utilisationAvg', `points[${i}]`),
      dropRateMax: nullableNum(p, 'dropRateMax', `points[${i}]`),
      ecnFractionMax: nullableNum(p, 'ecnFractionMax', `points[${i}]`),
    };
  });
  return { linkId, from, to, points };
}
