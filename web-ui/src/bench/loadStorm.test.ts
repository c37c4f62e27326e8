import { describe, expect, it } from 'vitest';
import type { Fabric } from '../api/types';
import { loadStorm, nextUtilisations, seededRandom } from './loadStorm';

const fabric = {
  schemaVersion: 1,
  id: 'f',
  nodes: [],
  links: [{ id: 'a-b', a: { node: 'a' }, b: { node: 'b' }, capacityGbps: 400 }],
} as unknown as Fabric; // only what loadStorm reads

describe('loadStorm', () => {
  it('gives both directions of every link a load, the same for the same seed', () => {
    const u = nextUtilisations(null, 2, seededRandom(7), 'random');
    const one = loadStorm(fabric, u);
    expect([...(one.get('a-b')?.keys() ?? [])]).toEqual(['a', 'b']);
    expect(one.get('a-b')?.get('a')).toMatchObject({ to: 'b', utilisation: u[0] });
    expect(one.get('a-b')?.get('b')).toMatchObject({ to: 'a', utilisation: u[1] });
    expect(nextUtilisations(null, 2, seededRandom(7), 'random')).toEqual(u);
  });

  it('walks each load by at most the step, within [0, 1]', () => {
    const random = seededRandom(3);
    let u = nextUtilisations(null, 100, random, 'walk');
    for (let round = 0; round < 50; round++) {
      const next = nextUtilisations(u, 100, random, 'walk', 0.03);
      next.forEach((x, i) => {
        expect(Math.abs(x - (u[i] ?? 0))).toBeLessThanOrEqual(0.03 + 1e-12);
        expect(x).toBeGreaterThanOrEqual(0);
        expect(x).toBeLessThanOrEqual(1);
      });
      u = next;
    }
  });
});
