import { useMemo, type ComponentType } from 'react';
import type { LinkSeries } from '../../api/collectorApi';
import { seriesColumns, seriesSummary } from '../../domain/linkSeries';
import { UPlotChart, type ChartProps } from './UPlotChart';
import './LinkHistory.css';

interface Props {
  linkId: string;
  series: LinkSeries | null;
  error: string | null;
  onClose: () => void;
  /** The chart renderer; jsdom tests swap it (uPlot needs a canvas). */
  Chart?: ComponentType<ChartProps>;
}

/** The selected link's utilisation and drops over the last minutes, from the collector's history. */
export function LinkHistory({ linkId, series, error, onClose, Chart = UPlotChart }: Props) {
  const columns = useMemo(() => seriesColumns(series?.points ?? []), [series]);
  return (
    <section className="link-history" role="region" aria-label="Link history">
      <header className="link-history__header">
        <h2>Link {linkId}</h2>
        <button type="button" onClick={onClose} aria-label="Close link history">
          ×
        </button>
      </header>
      {error && <p className="link-history__error">History: {error}</p>}
      {series === null ? (
        !error && <p>Loading…</p>
      ) : (
        <>
          <p className="link-history__summary">Last 15 min, per second: {seriesSummary(columns)}</p>
          {columns.x.length > 0 && <Chart columns={columns} />}
        </>
      )}
    </section>
  );
}
