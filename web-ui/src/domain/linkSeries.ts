// A link's history (the collector's 1-second rollups of both directions) -> aligned columns for a
// time-series chart: one x axis (unix seconds) and, per direction, utilisation and drop rate
// (null where that direction has no rollup in a second, so the chart shows a gap, not a zero).
export interface PointLike {
  toNode: string;
  second: string;
  utilisationAvg: number;
  dropRateMax: number | null;
}

export interface SeriesColumns {
  /** Unix seconds, ascending. */
  x: number[];
  /** One per direction, named by the node it points to, in name order. */
  directions: { toNode: string; utilisation: (number | null)[]; dropRate: (number | null)[] }[];
}

export function seriesColumns(points: readonly PointLike[]): SeriesColumns {
  const seconds = [...new Set(points.map((p) => Math.floor(Date.parse(p.second) / 1000)))]
    .filter(Number.isFinite)
    .sort((a, b) => a - b);
  const index = new Map(seconds.map((s, i) => [s, i]));
  const names = [...new Set(points.map((p) => p.toNode))].sort();
  const directions = names.map((toNode) => ({
    toNode,
    utilisation: seconds.map((): number | null => null),
    dropRate: seconds.map((): number | null => null),
  }));
  const byName = new Map(directions.map((d) => [d.toNode, d]));
  for (const p of points) {
    const i = index.get(Math.floor(Date.parse(p.second) / 1000));
    const d = byName.get(p.toNode);
    if (i === undefined || !d) continue;
    d.utilisation[i] = p.utilisationAvg;
    d.dropRate[i] = p.dropRateMax;
  }
  return { x: seconds, directions };
}

/** A one-line summary (also the chart's text alternative): per direction, last and peak utilisation and peak drops. */
export function seriesSummary(c: SeriesColumns): string {
  if (c.x.length === 0) return 'no samples in this window';
  const pct = (v: number) => `${Math.round(v * 100)}%`;
  return c.directions
    .map((d) => {
      const u = d.utilisation.filter((v): v is number => v !== null);
      const dr = d.dropRate.filter((v): v is number => v !== null);
      const latest = u.at(-1);
      const last = latest !== undefined ? pct(latest) : 'n/a';
      const peak = u.length > 0 ? pct(Math.max(...u)) : 'n/a';
      const drops = dr.length > 0 ? `, peak drops ${(Math.max(...dr) * 100).toFixed(2)}%` : '';
      return `→ ${d.toNode}: now ${last}, peak ${peak}${drops}`;
    })
    .join('; ');
}
