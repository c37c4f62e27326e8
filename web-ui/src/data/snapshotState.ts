// Connection state of the UI's one data source, as a pure reducer so its rules are testable:
// the last good snapshot stays on screen through later failures, a snapshot never replaces a
// newer one of the same fabric (answers can arrive out of order), and a poll that brings
// nothing new returns the very same state object, so nothing re-renders.
import type { FabricSnapshot } from '../api/types';

export type SnapshotState =
  | { status: 'loading'; snapshot?: FabricSnapshot; failures: number }
  | { status: 'loaded'; snapshot: FabricSnapshot; failures: 0 }
  | { status: 'error'; snapshot?: FabricSnapshot; failures: number; error: string };

export type SnapshotAction =
  { type: 'request' } | { type: 'received'; snapshot: FabricSnapshot } | { type: 'failed'; error: string };

export const initialSnapshotState: SnapshotState = { status: 'loading', failures: 0 };

export function snapshotReducer(state: SnapshotState, action: SnapshotAction): SnapshotState {
  switch (action.type) {
    case 'request':
      // A poll while a snapshot is shown is not worth announcing; a retry after errors is.
      if (state.status === 'loaded') return state;
      return { status: 'loading', snapshot: state.snapshot, failures: state.failures };
    case 'received': {
      const held = state.snapshot;
      const notNewer = held?.fabricId === action.snapshot.fabricId && action.snapshot.version <= held.version;
      if (notNewer && state.status === 'loaded') return state;
      return { status: 'loaded', snapshot: notNewer ? held : action.snapshot, failures: 0 };
    }
    case 'failed':
      return { status: 'error', snapshot: state.snapshot, failures: state.failures + 1, error: action.error };
  }
}

/** How often a shown snapshot is refreshed (the controller answers 304 when nothing changed). */
export const POLL_MS = 5000;

/** Automatic retry delay after the n-th consecutive failure (n >= 1): 1 s doubling, capped at 30 s. */
export function retryDelayMs(failures: number): number {
  return Math.min(30_000, 1000 * 2 ** Math.max(0, failures - 1));
}
