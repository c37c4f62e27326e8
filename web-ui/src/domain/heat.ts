// Link-direction load -> colour. cividis (d3-scale-chromatic) is readable with every common form
// of colour blindness and in greyscale: dark blue = idle, yellow = full.
import { interpolateCividis } from 'd3-scale-chromatic';

/** Utilisation at or above this is drawn as hot even before the collector reports a hotspot. */
export const HOT_UTILISATION = 0.9;

/** Steps of the colour scale: finer than the eye tells apart, and the colours are made once. */
const STEPS = 256;
const COLOURS = Array.from({ length: STEPS + 1 }, (_, i) => interpolateCividis(i / STEPS));

/**
 * Colour for a utilisation in [0, 1]; values outside are clamped (over-subscription shows as full).
 * Looked up in a 257-step table: every link's colour is recomputed on each live update (up to 10 Hz),
 * and interpolating and formatting a colour per direction cost more than the rest of the model.
 */
export function heatColour(utilisation: number): string {
  const u = Number.isFinite(utilisation) ? Math.min(1, Math.max(0, utilisation)) : 0;
  return COLOURS[Math.round(u * STEPS)] ?? interpolateCividis(u);
}

/** The legend's stops, low to high. */
export function heatLegendStops(count = 6): { utilisation: number; colour: string }[] {
  return Array.from({ length: count }, (_, i) => {
    const utilisation = i / (count - 1);
    return { utilisation, colour: heatColour(utilisation) };
  });
}

/** One direction of a link: 'from' sends towards 'to'. */
export interface DirectionLoad {
  from: string;
  to: string;
  utilisation: number;
  reservedGbps: number;
  capacityGbps: number;
  elephants: number;
  /** Measured only (domain/measured.ts): the last interval's rate, drop rate, ECN fraction, oper-status. */
  rateGbps?: number;
  dropRate?: number | null;
  ecnFraction?: number | null;
  operDown?: boolean;
}

/** Per link id, its directions' loads keyed by the sending node. */
export type LinkLoads = Map<string, Map<string, DirectionLoad>>;

interface ReservationLike {
  link?: string;
  from?: string;
  to?: string;
  reservedGbps?: number;
  capacityGbps?: number;
  utilisation?: number;
  elephants?: number;
}

/** Groups scheduler-api's per-direction reservations by link; entries without link/from/to are skipped. */
export function linkLoads(reservations: readonly ReservationLike[]): LinkLoads {
  const out: LinkLoads = new Map();
  for (const r of reservations) {
    if (!r.link || !r.from || !r.to) continue;
    const capacityGbps = r.capacityGbps ?? 0;
    const reservedGbps = r.reservedGbps ?? 0;
    const utilisation = r.utilisation ?? (capacityGbps > 0 ? reservedGbps / capacityGbps : 0);
    let dirs = out.get(r.link);
    if (!dirs) out.set(r.link, (dirs = new Map<string, DirectionLoad>()));
    dirs.set(r.from, { from: r.from, to: r.to, utilisation, reservedGbps, capacityGbps, elephants: r.elephants ?? 0 });
  }
  return out;
}

/** A direction id as the collector names it: '<link>><to node>' (e.g. 'leaf1-spine4>spine4'). */
export function directionId(linkId: string, to: string): string {
  return `${linkId}>${to}`;
}
