// The selected link's history from the collector (GET /v1/links/{id}/series), re-read every
// `pollMs` while it stays selected. A failed read keeps the last series and says what failed.
import { useEffect, useRef, useState } from 'react';
import { fetchLinkSeries, type LinkSeries } from '../api/collectorApi';
import type { Fetch } from '../api/schedulerApi';

export interface LinkHistoryState {
  series: LinkSeries | null;
  error: string | null;
}

export function useLinkHistory(
  linkId: string | null,
  {
    fetchFn = (...a) => fetch(...a),
    pollMs = 5000,
    windowMs = 900_000,
  }: { fetchFn?: Fetch; pollMs?: number; windowMs?: number } = {},
): LinkHistoryState {
  const [state, setState] = useState<LinkHistoryState & { linkId: string | null }>({
    linkId: null,
    series: null,
    error: null,
  });
  const fetchRef = useRef(fetchFn);
  useEffect(() => {
    if (!linkId) return;
    const abort = new AbortController();
    const read = () =>
      fetchLinkSeries(linkId, (...a) => fetchRef.current(...a), new Date(), windowMs, abort.signal).then(
        (series) => {
          setState({ linkId, series, error: null });
        },
        (e: unknown) => {
          if (abort.signal.aborted) return;
          const error = e instanceof Error ? e.message : String(e);
          setState((s) => ({ linkId, series: s.linkId === linkId ? s.series : null, error }));
        },
      );
    void read();
    const timer = setInterval(() => void read(), pollMs);
    return () => {
      abort.abort();
      clearInterval(timer);
    };
  }, [linkId, pollMs, windowMs]);
  // A series read for another link is not shown for this one.
  return state.linkId === linkId ? { series: state.series, error: state.error } : { series: null, error: null };
}
