import { useEffect, useRef } from 'react';
import type { SeriesColumns } from '../../domain/linkSeries';
import 'uplot/dist/uPlot.min.css';

export interface ChartProps {
  columns: SeriesColumns;
}

// Direction colours: two hues readable by common colour-vision deficiencies (Okabe-Ito blue/orange).
const COLOURS = ['#0072b2', '#e69f00', '#009e73', '#cc79a7'];

/**
 * Utilisation (left axis, %) and drop rate (right axis, %) of each direction over time, drawn by
 * uPlot on a canvas. uPlot is loaded on first use, so the initial bundle does not carry it.
 */
export function UPlotChart({ columns }: ChartProps) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    let plot: { destroy(): void } | null = null;
    let cancelled = false;
    void import('uplot').then(({ default: UPlot }) => {
      if (cancelled) return;
      const series = [
        {},
        ...columns.directions.flatMap((d, i) => [
          {
            label: `→ ${d.toNode} util %`,
            stroke: COLOURS[i % COLOURS.length],
            scale: '%',
            value: (_: unknown, v: number | null) => (v === null ? '–' : `${(v * 100).toFixed(0)}%`),
          },
          {
            label: `→ ${d.toNode} drops %`,
            stroke: COLOURS[i % COLOURS.length],
            dash: [4, 4],
            scale: 'drops',
            value: (_: unknown, v: number | null) => (v === null ? '–' : `${(v * 100).toFixed(2)}%`),
          },
        ]),
      ];
      const data = [columns.x, ...columns.directions.flatMap((d) => [d.utilisation, d.dropRate])];
      plot = new UPlot(
        {
          width: el.clientWidth || 320,
          height: 180,
          // names only: the summary line above gives the numbers, and a live legend would not fit the panel
          legend: { live: false },
          series,
          scales: { '%': { range: [0, 1] } },
          axes: [
            {},
            { scale: '%', values: (_u, ticks) => ticks.map((t) => `${Math.round(t * 100)}%`) },
            {
              scale: 'drops',
              // right-hand axis; uPlot types sides as a const enum, which an isolated module cannot name
              // eslint-disable-next-line @typescript-eslint/no-unsafe-enum-assignment
              side: 1,
              grid: { show: false },
              values: (_u, ticks) => ticks.map((t) => `${(t * 100).toFixed(1)}%`),
            },
          ],
        },
        data as unknown as ConstructorParameters<typeof UPlot>[1],
        el,
      );
    });
    return () => {
      cancelled = true;
      plot?.destroy();
    };
  }, [columns]);
  return <div ref={box} className="link-history__chart" aria-hidden="true" />;
}
