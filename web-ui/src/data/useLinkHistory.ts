// The selected link's history from the collector (GET /v1/links/{id}/series), re-read every
// `pollMs` while it stays selected. A failed read keeps the last series and says what failed.
import { useEffect, useRef, useState } from 'react';
import { fetchLinkSeries, type LinkSeries } from '../api/collectorApi';
import { UnauthorizedError, type Fetch } from '../api/schedulerApi';
import { withToken } from '../api/withToken';

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
    token = null,
    onUnauthorised,
  }: {
    fetchFn?: Fetch;
    pollMs?: number;
    windowMs?: number;
    /** Sent along: a deployment's collector closes its reads. */
    token?: string | null;
    /** The collector refused the token: the operator is asked again. */
    onUnauthorised?: () => void;
  } = {},
): LinkHistoryState {
  const [state, setState] = useState<LinkHistoryState & { linkId: string | null }>({
    linkId: null,
    series: null,
    error: null,
  });
  const fetchRef = useRef(fetchFn);
  const refused = useRef(onUnauthorised);
  useEffect(() => {
    refused.current = onUnauthorised;
  }, [onUnauthorised]);
  useEffect(() => {
    if (!linkId) return;
    const abort = new AbortController();
    const authorised = withToken((...a) => fetchRef.current(...a), token);
    const read = () =>
      fetchLinkSeries(linkId, authorised, new Date(), windowMs, abort.signal).then(
        (series) => {
          setState({ linkId, series, error: null });
        },
        (e: unknown) => {
          if (abort.signal.aborted) return;
          if (e instanceof UnauthorizedError) refused.current?.();
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
  }, [linkId, pollMs, windowMs, token]);
  // A series read for another link is not shown for this one.
  return state.linkId === linkId ? { series: state.series, error: state.error } : { series: null, error: null };
}
