import type { LinkState } from '../api/types';

/** Line width in px grows with the log of capacity: 100 Gbit/s -> 1, 400 -> 3, 1600 -> 5 (max 6). */
export function edgeWidthPx(capacityGbps: number): number {
  if (!(capacityGbps > 0)) return 1;
  return Math.min(6, Math.max(1, 1 + Math.log2(capacityGbps / 100)));
}

export const LINK_STATE_COLOURS: Record<LinkState, string> = {
  up: '#9aa4ae',
  drained: '#d08a1c',
  down: '#c62828',
};
