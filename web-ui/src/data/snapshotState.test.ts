import { describe, expect, it } from 'vitest';
import type { FabricPlan, FabricSnapshot } from '../api/types';
import { initialSnapshotState, retryDelayMs, snapshotReducer, type SnapshotState } from './snapshotState';

const snapshot = (fabricId: string, version: number): FabricSnapshot => ({
  schemaVersion: 1,
  fabricId,
  version,
  generatedAt: '2026-11-21T12:00:00Z',
  fabric: { schemaVersion: 1, id: fabricId, nodes: [], links: [] },
  plan: {} as FabricPlan, // the dashboard does not read the plan yet
  linkStates: {},
});

const run = (...actions: Parameters<typeof snapshotReducer>[1][]): SnapshotState =>
  actions.reduce(snapshotReducer, initialSnapshotState);

describe('snapshotReducer', () => {
  it('starts loading and shows a received snapshot', () => {
    expect(initialSnapshotState.status).toBe('loading');
    const s = run({ type: 'received', snapshot: snapshot('f', 3) });
    expect(s).toEqual({ status: 'loaded', snapshot: snapshot('f', 3), failures: 0 });
  });

  it('counts consecutive failures and resets them on success', () => {
    let s = run({ type: 'failed', error: 'down' }, { type: 'request' }, { type: 'failed', error: 'still down' });
    expect(s).toMatchObject({ status: 'error', failures: 2, error: 'still down' });
    s = snapshotReducer(s, { type: 'received', snapshot: snapshot('f', 1) });
    expect(s.failures).toBe(0);
  });

  it('keeps the last snapshot through a failure', () => {
    const s = run(
      { type: 'received', snapshot: snapshot('f', 5) },
      { type: 'request' },
      { type: 'failed', error: 'x' },
    );
    expect(s.status).toBe('error');
    expect(s.snapshot?.version).toBe(5);
  });

  it('drops a snapshot older than the one held for the same fabric', () => {
    const s = run({ type: 'received', snapshot: snapshot('f', 7) }, { type: 'received', snapshot: snapshot('f', 6) });
    expect(s.snapshot?.version).toBe(7);
  });

  it('returns the same state object for a poll that brings nothing new', () => {
    const loaded = run({ type: 'received', snapshot: snapshot('f', 7) });
    expect(snapshotReducer(loaded, { type: 'request' })).toBe(loaded);
    expect(snapshotReducer(loaded, { type: 'received', snapshot: snapshot('f', 7) })).toBe(loaded);
  });

  it('announces a retry after an error as loading, keeping the snapshot', () => {
    const s = run(
      { type: 'received', snapshot: snapshot('f', 7) },
      { type: 'failed', error: 'x' },
      { type: 'request' },
    );
    expect(s).toMatchObject({ status: 'loading', failures: 1 });
    expect(s.snapshot?.version).toBe(7);
  });

  it('takes a newer version, and any version of another fabric', () => {
    expect(
      run({ type: 'received', snapshot: snapshot('f', 7) }, { type: 'received', snapshot: snapshot('f', 8) }).snapshot
        ?.version,
    ).toBe(8);
    expect(
      run({ type: 'received', snapshot: snapshot('f', 7) }, { type: 'received', snapshot: snapshot('g', 1) }).snapshot
        ?.fabricId,
    ).toBe('g');
  });
});

describe('retryDelayMs', () => {
  it('doubles from 1 s and stops at 30 s', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 50].map(retryDelayMs)).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]);
  });
});
