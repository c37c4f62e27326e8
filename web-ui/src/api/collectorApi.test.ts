import { describe, expect, it, vi } from 'vitest';
import { fetchHotspots, fetchLinkSeries, parseLoadDelta, parseLoadSnapshot } from './collectorApi';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

const load = {
  schemaVersion: 1,
  fabricId: 'f',
  linkId: 'l1',
  toNode: 's1',
  timestampNs: '1764000000000000001',
  rateGbps: 10,
  capacityGbps: 400,
  utilisation: 0.025,
  dropRate: null,
  ecnFraction: 0,
  operStatus: 'UP',
  hot: false,
};

describe('fetchHotspots', () => {
  it('asks for the last hour and checks each row', async () => {
    const row = {
      schemaVersion: 1,
      eventId: 'e1',
      kind: 'hotspot-start',
      linkId: 'l1',
      direction: 's4',
      sampleTimestampNs: '5',
      detectedAt: '2026-11-25T12:00:00Z',
      utilisation: 0.97,
      dropRate: 0,
      ecnFraction: null,
      threshold: 0.8,
    };
    const fetchFn = vi.fn<typeof fetch>(async () => json(200, { events: [row] }));
    const rows = await fetchHotspots(fetchFn, new Date('2026-11-25T12:00:00Z'));
    expect(fetchFn.mock.calls[0]![0]).toBe('/v1/hotspots?from=2026-11-25T11%3A00%3A00.000Z');
    expect(rows).toEqual([row]);
    await expect(fetchHotspots(async () => json(200, { events: [{ kind: 'hotspot-end' }] }))).rejects.toThrow(
      'events[0].schemaVersion: required',
    );
    await expect(fetchHotspots(async () => json(503, { detail: 'no database' }))).rejects.toThrow(
      '/v1/hotspots: HTTP 503: no database',
    );
  });
});

describe('load stream payloads', () => {
  it('reads a snapshot and a delta as the contract shapes them', () => {
    const s = parseLoadSnapshot({ schemaVersion: 1, epoch: 'ab12', seq: 3, loads: [load] });
    expect(s.loads[0]).toEqual(load);
    const d = parseLoadDelta({ schemaVersion: 1, epoch: 'ab12', fromSeq: 3, seq: 5, loads: [], removed: ['l9>s1'] });
    expect(d).toMatchObject({ fromSeq: 3, seq: 5, removed: ['l9>s1'] });
  });

  it('names the field that breaks the contract', () => {
    expect(() =>
      parseLoadSnapshot({ schemaVersion: 1, epoch: 'e', seq: 1, loads: [{ ...load, timestampNs: 5 }] }),
    ).toThrow('$.loads[0].timestampNs: must be string');
    expect(() =>
      parseLoadSnapshot({ schemaVersion: 1, epoch: 'e', seq: 1, loads: [{ ...load, operStatus: 'up' }] }),
    ).toThrow('$.loads[0].operStatus: must be equal to one of the allowed values');
    expect(() => parseLoadDelta({ schemaVersion: 1, epoch: 'e', seq: 1, loads: [], removed: [] })).toThrow(
      '$.fromSeq: must be a number',
    );
    expect(() => parseLoadSnapshot({ schemaVersion: 2, epoch: 'e', seq: 1, loads: [] })).toThrow(
      '$.schemaVersion: must be 1',
    );
  });
});

describe('fetchLinkSeries', () => {
  it('asks for the window of one link and reads its points', async () => {
    const point = {
      toNode: 's1',
      second: '2026-11-25T11:59:00Z',
      samples: 1,
      rateGbpsAvg: 10,
      rateGbpsMax: 10,
      utilisationAvg: 0.025,
      utilisationMax: 0.025,
      capacityGbps: 400,
      dropRateMax: null,
      ecnFractionMax: null,
      operStatus: 'UP',
      hot: false,
    };
    const fetchFn = vi.fn<typeof fetch>(async () => json(200, { linkId: 'l/1', from: 'a', to: 'b', points: [point] }));
    const s = await fetchLinkSeries('l/1', fetchFn, new Date('2026-11-25T12:00:00Z'), 60_000);
    expect(fetchFn.mock.calls[0]![0]).toBe(
      '/v1/links/l%2F1/series?from=2026-11-25T11%3A59%3A00.000Z&to=2026-11-25T12%3A00%3A01.000Z',
    );
    expect(s.points).toEqual([point]);
  });
});
