// Synthetic per-direction loads for every link of a fabric, as a live feed at 10 Hz would bring
// them: the benchmark's input (./weft bench ui), deterministic per seed.
import type { Fabric } from '../api/types';
import type { DirectionLoad, LinkLoads } from '../domain/heat';

/** A small seeded generator (mulberry32), so two runs colour the same links the same way. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Both directions of every link, each with a fresh utilisation in [0, 1). */
export function loadStorm(fabric: Fabric, random: () => number): LinkLoads {
  const out: LinkLoads = new Map();
  for (const l of fabric.links) {
    const dirs = new Map<string, DirectionLoad>();
    for (const [from, to] of [
      [l.a.node, l.b.node],
      [l.b.node, l.a.node],
    ] as const) {
      const utilisation = random();
      dirs.set(from, {
        from,
        to,
        utilisation,
        reservedGbps: Math.round(utilisation * l.capacityGbps),
        capacityGbps: l.capacityGbps,
        elephants: Math.floor(utilisation * 4),
      });
    }
    out.set(l.id, dirs);
  }
  return out;
}
