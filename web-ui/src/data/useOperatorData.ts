// Wires the operator's reads: the event stream, the job list and fabric state (re-read when an
// event says they changed), the collector's hotspot history of the last hour (polled slowly: live
// hotspots arrive on the load stream, useLiveLoads), and the selected job's detail. The token goes
// on the collector's reads too (a deployment closes them). A refused token is forgotten so the
// prompt asks again (`refuse`, also called by the other readers of the token).
import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from 'react';
import { fetchHotspots } from '../api/collectorApi';
import { schedulerApi, UnauthorizedError, type Fetch, type JobView } from '../api/schedulerApi';
import { withToken } from '../api/withToken';
import { dashboardReducer, initialDashboardState, type DashboardSource } from './dashboardState';
import { openEventStream } from './eventStream';
import { eventsReducer, initialEventsState } from './eventsState';
import { forgetOperatorToken, readOperatorToken, saveOperatorToken } from './operatorToken';

export interface OperatorDataOptions {
  fetchFn?: Fetch;
  hotspotPollMs?: number;
}

export function useOperatorData({ fetchFn = (...a) => fetch(...a), hotspotPollMs = 10_000 }: OperatorDataOptions = {}) {
  const [token, setToken] = useState<string | null>(() => readOperatorToken());
  const [events, dispatchEvent] = useReducer(eventsReducer, initialEventsState);
  const [data, dispatch] = useReducer(dashboardReducer, initialDashboardState);
  const [selectedJobId, setSelectedJobId] = useState<string | null>(null);
  // The detail read last, with the id it was read for: a detail of a job no longer selected is not shown.
  const [detail, setDetail] = useState<{ id: string; job: JobView } | null>(null);
  const lastEventId = useRef(events.lastEventId);
  lastEventId.current = events.lastEventId;
  const fetchRef = useRef(fetchFn);

  const api = useMemo(() => (token ? schedulerApi(token, (...a) => fetchRef.current(...a)) : null), [token]);

  const refuse = useCallback(() => {
    forgetOperatorToken();
    setToken(null);
  }, []);

  const fail = useCallback(
    (source: DashboardSource, err: unknown) => {
      if (err instanceof DOMException && err.name === 'AbortError') return;
      if (err instanceof UnauthorizedError) refuse();
      else dispatch({ type: 'failed', source, error: err instanceof Error ? err.message : String(err) });
    },
    [refuse],
  );

  useEffect(() => {
    if (!token) return;
    return openEventStream({
      token,
      dispatch: (action) => {
        dispatchEvent(action);
        if (action.type === 'unauthorised') refuse();
      },
      lastEventId: () => lastEventId.current,
      fetchFn: (...a) => fetchRef.current(...a),
    });
  }, [token, refuse]);

  useEffect(() => {
    if (!api) return;
    const abort = new AbortController();
    api.listJobs(abort.signal).then(
      (page) => {
        dispatch({ type: 'jobs', jobs: page.items ?? [] });
      },
      (e: unknown) => {
        fail('jobs', e);
      },
    );
    return () => {
      abort.abort();
    };
  }, [api, events.jobsStamp, fail]);

  useEffect(() => {
    if (!api) return;
    const abort = new AbortController();
    api.fabricState(abort.signal).then(
      (fabric) => {
        dispatch({ type: 'fabric', fabric });
      },
      (e: unknown) => {
        fail('fabric', e);
      },
    );
    return () => {
      abort.abort();
    };
  }, [api, events.fabricStamp, fail]);

  useEffect(() => {
    if (!api || !selectedJobId) return;
    const abort = new AbortController();
    api.getJob(selectedJobId, abort.signal).then(
      (job) => {
        setDetail({ id: selectedJobId, job });
      },
      (e: unknown) => {
        fail('job', e);
      },
    );
    return () => {
      abort.abort();
    };
  }, [api, selectedJobId, events.jobsStamp, fail]);

  useEffect(() => {
    const abort = new AbortController();
    const authorised = withToken((...a) => fetchRef.current(...a), token);
    const poll = () =>
      fetchHotspots(authorised, new Date(), 3_600_000, abort.signal).then(
        (rows) => {
          dispatch({ type: 'hotspots', events: rows });
        },
        (e: unknown) => {
          fail('hotspots', e);
        },
      );
    void poll();
    const timer = setInterval(() => void poll(), hotspotPollMs);
    return () => {
      abort.abort();
      clearInterval(timer);
    };
  }, [hotspotPollMs, fail, token]);

  const signIn = useCallback((t: string) => {
    saveOperatorToken(t);
    setToken(readOperatorToken());
  }, []);

  const selectedJob = detail?.id === selectedJobId ? detail.job : null;
  return { token, signIn, refuse, events, data, selectedJobId, selectJob: setSelectedJobId, selectedJob, api };
}
