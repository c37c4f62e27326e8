// contracts/vectors/hotspot-events.json on the dashboard's side: every valid event the collector
// writes is read by the collector client, and the dashboard's direction id is the contract's
// direction key (linkId>direction).
import { describe, expect, it } from 'vitest';
import { fetchHotspots, type HotspotEvent as HotspotEventContract } from '../api/collectorApi';
import { readContract } from '../testing/contracts';
import { directionId } from './heat';
import { hotDirections } from './hotspots';

interface HotspotVector {
  name: string;
  valid: boolean;
  key?: string;
  directionKey?: string;
  field?: string;
  value: HotspotEventContract;
}

const vectors = readContract<{ cases: HotspotVector[] }>('vectors/hotspot-events.json').cases;
const valid = vectors.filter((c) => c.valid);

describe('hotspot-event vectors', () => {
  it('has valid cases of every kind', () => {
    expect(new Set(valid.map((c) => c.value.kind))).toEqual(
      new Set(['hotspot-start', 'hotspot-end', 'link-down', 'link-up']),
    );
  });

  it.each(valid)('$name: its direction id is the contract direction key', (c) => {
    expect(directionId(c.value.linkId, c.value.direction)).toBe(c.directionKey);
  });

  it('reads every valid event through the collector client', async () => {
    const body = { events: valid.map((c) => c.value) };
    const fetchFn = () => Promise.resolve(new Response(JSON.stringify(body), { status: 200 }));
    const events = await fetchHotspots(fetchFn, new Date('2026-11-27T04:00:00Z'));
    expect(events.map((e) => e.kind)).toEqual(valid.map((c) => c.value.kind));
    // hotspot-start then hotspot-end of leaf1-spine4>spine4: nothing is left hot.
    expect(hotDirections(events)).toEqual(new Set());
  });

  it('refuses the unknown kind naming the field', async () => {
    const bad = vectors.find((c) => c.name === 'unknown-kind');
    expect(bad?.field).toBe('kind');
    const body = { events: [bad?.value] };
    const fetchFn = () => Promise.resolve(new Response(JSON.stringify(body), { status: 200 }));
    await expect(fetchHotspots(fetchFn)).rejects.toThrow('events[0].kind:');
  });
});
