import { describe, expect, it } from 'vitest';
import type { Fabric } from '../api/types';
import { loadStorm, seededRandom } from './loadStorm';

const fabric = {
  schemaVersion: 1,
  id: 'f',
  nodes: [],
  links: [{ id: 'a-b', a: { node: 'a' }, b: { node: 'b' }, capacityGbps: 400 }],
} as Fabric;

describe('loadStorm', () => {
  it('gives both directions of every link a load, the same for the same seed', () => {
    const one = loadStorm(fabric, seededRandom(7));
    expect([...(one.get('a-b')?.keys() ?? [])]).toEqual(['a', 'b']);
    const ab = one.get('a-b')?.get('a');
    expect(ab?.to).toBe('b');
    expect(ab?.utilisation).toBeGreaterThanOrEqual(0);
    expect(ab?.utilisation).toBeLessThan(1);
    expect(loadStorm(fabric, seededRandom(7))).toEqual(one);
  });
});
