import { describe, expect, it } from 'vitest';
import type { HotspotEvent, LinkLoad } from '../api/collectorApi';
import { initialLoadState, loadReducer, loadStreamPosition } from './loadState';

const load = (linkId: string, toNode: string, utilisation: number, timestampNs: string): LinkLoad => ({
  schemaVersion: 1,
  fabricId: 'f',
  linkId,
  toNode,
  timestampNs,
  rateGbps: utilisation * 400,
  capacityGbps: 400,
  utilisation,
  dropRate: null,
  ecnFraction: null,
  operStatus: 'UP',
  hot: false,
});

const snap = (epoch: string, seq: number, loads: LinkLoad[]) =>
  loadReducer(initialLoadState, { type: 'snapshot', snapshot: { schemaVersion: 1, epoch, seq, loads } });

describe('loadReducer', () => {
  it('takes a snapshot whole and resumes from its position', () => {
    expect(loadStreamPosition(initialLoadState)).toBeNull();
    const s = snap('e1', 7, [load('l1', 'b', 0.5, '100')]);
    expect(s.connection).toBe('open');
    expect(loadStreamPosition(s)).toBe('e1:7');
    expect(s.loads.get('l1>b')?.utilisation).toBe(0.5);
  });

  it('applies deltas in order and drops replayed, foreign and overtaken data', () => {
    let s = snap('e1', 7, [load('l1', 'b', 0.5, '100'), load('l2', 'c', 0.1, '100')]);
    s = loadReducer(s, {
      type: 'delta',
      delta: {
        schemaVersion: 1,
        epoch: 'e1',
        fromSeq: 7,
        seq: 9,
        loads: [load('l1', 'b', 0.9, '200')],
        removed: ['l2>c'],
      },
    });
    expect(s.seq).toBe(9);
    expect(s.loads.get('l1>b')?.utilisation).toBe(0.9);
    expect(s.loads.has('l2>c')).toBe(false);
    const replay = {
      schemaVersion: 1 as const,
      epoch: 'e1',
      fromSeq: 7,
      seq: 9,
      loads: [load('l1', 'b', 0.1, '300')],
      removed: [],
    };
    expect(loadReducer(s, { type: 'delta', delta: replay })).toBe(s);
    const foreign = { ...replay, epoch: 'e0', seq: 50 };
    expect(loadReducer(s, { type: 'delta', delta: foreign })).toBe(s);
    // a newer position carrying an older sample of a direction keeps the newer sample
    const overtaken = { ...replay, seq: 10, loads: [load('l1', 'b', 0.2, '150')] };
    const t = loadReducer(s, { type: 'delta', delta: overtaken });
    expect(t.seq).toBe(10);
    expect(t.loads.get('l1>b')?.utilisation).toBe(0.9);
  });

  it('compares uint64 timestamps beyond 2^53 exactly', () => {
    let s = snap('e1', 1, [load('l1', 'b', 0.5, '1764000000000000001')]);
    s = loadReducer(s, {
      type: 'delta',
      delta: {
        schemaVersion: 1,
        epoch: 'e1',
        fromSeq: 1,
        seq: 2,
        loads: [load('l1', 'b', 0.7, '1764000000000000000')],
        removed: [],
      },
    });
    expect(s.loads.get('l1>b')?.utilisation).toBe(0.5);
  });

  it('keeps the data through a failure and says when it retries', () => {
    const s = loadReducer(snap('e1', 1, [load('l1', 'b', 0.5, '1')]), {
      type: 'failed',
      error: 'HTTP 502',
      retryInMs: 2000,
    });
    expect(s.connection).toBe('retrying');
    expect(s.retryInMs).toBe(2000);
    expect(s.loads.size).toBe(1);
  });

  it('keeps live hotspot events once each, newest first', () => {
    const h = (eventId: string): HotspotEvent => ({
      schemaVersion: 1,
      eventId,
      kind: 'hotspot-start',
      linkId: 'l1',
      direction: 'b',
      sampleTimestampNs: '1',
      detectedAt: '2026-11-25T12:00:00Z',
      utilisation: 0.95,
      dropRate: null,
      ecnFraction: null,
      threshold: 0.8,
    });
    let s = loadReducer(initialLoadState, { type: 'hotspot', event: h('a') });
    s = loadReducer(s, { type: 'hotspot', event: h('b') });
    expect(loadReducer(s, { type: 'hotspot', event: h('a') })).toBe(s);
    expect(s.hotspots.map((e) => e.eventId)).toEqual(['b', 'a']);
  });
});
