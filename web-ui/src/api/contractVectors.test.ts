// contracts/vectors/link-loads.json and hotspot-events.json through the dashboard's readers of the
// collector's payloads: every valid value is read unchanged, every invalid one is refused with a
// message naming the vector's field, as the Java readers do.
import { describe, expect, it } from 'vitest';
import { readContract } from '../testing/contracts';
import { parseHotspotEvent, parseLoadSnapshot } from './collectorApi';

interface Vector {
  name: string;
  valid: boolean;
  field?: string;
  value: unknown;
}

const loads = readContract<{ cases: Vector[] }>('vectors/link-loads.json').cases;
const hotspots = readContract<{ cases: Vector[] }>('vectors/hotspot-events.json').cases;
const snapshot = (load: unknown) => ({ schemaVersion: 1, epoch: 'e', seq: 1, loads: [load] });

describe('link-load vectors', () => {
  it.each(loads.filter((c) => c.valid))('$name: read unchanged', (c) => {
    expect(parseLoadSnapshot(snapshot(c.value)).loads).toEqual([c.value]);
  });

  it.each(loads.filter((c) => !c.valid))('$name: refused naming $field', (c) => {
    expect(() => parseLoadSnapshot(snapshot(c.value))).toThrow(`$.loads[0].${c.field ?? '?'}: `);
  });
});

describe('hotspot-event vectors', () => {
  it.each(hotspots.filter((c) => c.valid))('$name: read unchanged', (c) => {
    expect(parseHotspotEvent(c.value)).toEqual(c.value);
  });

  it.each(hotspots.filter((c) => !c.valid))('$name: refused naming $field', (c) => {
    expect(() => parseHotspotEvent(c.value)).toThrow(`$.${c.field ?? '?'}: `);
  });
});
