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

export type StormKind = 'walk' | 'random';

/**
 * The next utilisation of every link direction (two per link, a then b): 'random' draws each one
 * afresh (the worst case: every link changes colour), 'walk' moves each by at most ±step (1 %) from the
 * last, as a live feed's consecutive 100 ms samples do.
 */
export function nextUtilisations(
  prev: Float64Array | null,
  count: number,
  random: () => number,
  kind: StormKind,
  step = 0.03,
) {
  const out = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    const last = prev?.[i];
    out[i] =
      kind === 'random' || last === undefined ? random() : Math.min(1, Math.max(0, last + (random() * 2 - 1) * step));
  }
  return out;
}

/** Both directions of every link with the given utilisations (index 2i: a -> b, 2i + 1: b -> a). */
export function loadStorm(fabric: Fabric, utilisations: Float64Array): LinkLoads {
  const out: LinkLoads = new Map();
  fabric.links.forEach((l, i) => {
    const dirs = new Map<string, DirectionLoad>();
    for (const [from, to, k] of [
      [l.a.node, l.b.node, 2 * i],
      [l.b.node, l.a.node, 2 * i + 1],
    ] as const) {
      const utilisation = utilisations[k] ?? 0;
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
  });
  return out;
}
