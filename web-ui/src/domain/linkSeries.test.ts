import { describe, expect, it } from 'vitest';
import { seriesColumns, seriesSummary } from './linkSeries';

const p = (toNode: string, s: number, u: number, d: number | null = null) => ({
  toNode,
  second: `2026-11-25T12:00:0${s}Z`,
  utilisationAvg: u,
  dropRateMax: d,
});

describe('seriesColumns', () => {
  it('aligns both directions on one time axis with gaps where a second is missing', () => {
    const c = seriesColumns([p('spine1', 1, 0.5), p('leaf1', 1, 0.1), p('spine1', 2, 0.9, 0.02), p('leaf1', 3, 0.2)]);
    const t0 = Date.parse('2026-11-25T12:00:01Z') / 1000;
    expect(c.x).toEqual([t0, t0 + 1, t0 + 2]);
    expect(c.directions).toEqual([
      { toNode: 'leaf1', utilisation: [0.1, null, 0.2], dropRate: [null, null, null] },
      { toNode: 'spine1', utilisation: [0.5, 0.9, null], dropRate: [null, 0.02, null] },
    ]);
    expect(seriesSummary(c)).toBe('→ leaf1: now 20%, peak 20%; → spine1: now 90%, peak 90%, peak drops 2.00%');
  });

  it('says when the window is empty', () => {
    expect(seriesSummary(seriesColumns([]))).toBe('no samples in this window');
  });
});
