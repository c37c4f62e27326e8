// Pure state of the collector's live load stream (/v1/links/load/stream): the connection, where we
// stand (epoch:seq, sent back as Last-Event-ID), the latest measured load of every link direction,
// and the hotspot events that arrived live. Stale data is dropped: a delta of another epoch or one
// we are already past, and a direction's load older than the one held.
import type { HotspotEvent, LinkLoad, LoadDelta, LoadSnapshot } from '../api/collectorApi';
import { directionId } from '../domain/heat';

export type LoadConnection = 'connecting' | 'open' | 'retrying';

export interface LoadState {
  connection: LoadConnection;
  retryInMs: number | null;
  lastError: string | null;
  /** The collector process the positions belong to; null before the first snapshot. */
  epoch: string | null;
  seq: number;
  /** By direction id ('<link>><to node>'). */
  loads: ReadonlyMap<string, LinkLoad>;
  /** Live hotspot events, newest first, at most MAX_LIVE_HOTSPOTS. */
  hotspots: readonly HotspotEvent[];
}

export const MAX_LIVE_HOTSPOTS = 500;

export type LoadAction =
  | { type: 'connecting' }
  | { type: 'snapshot'; snapshot: LoadSnapshot }
  | { type: 'delta'; delta: LoadDelta }
  | { type: 'hotspot'; event: HotspotEvent }
  | { type: 'failed'; error: string; retryInMs: number };

export const initialLoadState: LoadState = {
  connection: 'connecting',
  retryInMs: null,
  lastError: null,
  epoch: null,
  seq: 0,
  loads: new Map(),
  hotspots: [],
};

/** The Last-Event-ID to resume from, or null before the first snapshot. */
export function loadStreamPosition(s: LoadState): string | null {
  return s.epoch === null ? null : `${s.epoch}:${s.seq}`;
}

/** Is `a` strictly older than `b`? timestampNs are uint64 decimal strings (beyond 2^53). */
function older(a: string, b: string): boolean {
  return a.length !== b.length ? a.length < b.length : a < b;
}

function put(into: Map<string, LinkLoad>, load: LinkLoad) {
  const id = directionId(load.linkId, load.toNode);
  const held = into.get(id);
  if (held && older(load.timestampNs, held.timestampNs)) return; // an overtaken sample
  into.set(id, load);
}

export function loadReducer(state: LoadState, action: LoadAction): LoadState {
  switch (action.type) {
    case 'connecting':
      return { ...state, connection: 'connecting', retryInMs: null };
    case 'snapshot': {
      // A snapshot replaces everything (a restarted collector may have forgotten directions).
      const loads = new Map<string, LinkLoad>();
      for (const l of action.snapshot.loads) put(loads, l);
      return {
        ...state,
        connection: 'open',
        retryInMs: null,
        lastError: null,
        epoch: action.snapshot.epoch,
        seq: action.snapshot.seq,
        loads,
      };
    }
    case 'delta': {
      const d = action.delta;
      if (d.epoch !== state.epoch || d.seq <= state.seq) return state; // not ours, or already applied
      const loads = new Map(state.loads);
      for (const id of d.removed) loads.delete(id);
      for (const l of d.loads) put(loads, l);
      return { ...state, connection: 'open', retryInMs: null, lastError: null, seq: d.seq, loads };
    }
    case 'hotspot': {
      if (state.hotspots.some((h) => h.eventId === action.event.eventId)) return state;
      return { ...state, hotspots: [action.event, ...state.hotspots].slice(0, MAX_LIVE_HOTSPOTS) };
    }
    case 'failed':
      return { ...state, connection: 'retrying', lastError: action.error, retryInMs: action.retryInMs };
  }
}
