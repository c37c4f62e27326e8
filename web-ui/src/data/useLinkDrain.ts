// Wires a drain or undrain to scheduler-api: reads the active jobs to name the flows on the link,
// sends the call once confirmed, then re-reads those jobs whenever the event stream says jobs
// changed, until every named flow has left the link.
import { useCallback, useEffect, useReducer } from 'react';
import type { JobSummary, SchedulerApi } from '../api/schedulerApi';
import { allMoved, flowsOnLink } from '../domain/drain';
import { drainReducer, idleDrain, type DrainAction } from './drainState';

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

export function useLinkDrain(api: SchedulerApi | null, jobs: readonly JobSummary[] | null, jobsStamp: number) {
  const [state, dispatch] = useReducer(drainReducer, idleDrain);

  const ask = useCallback(
    (linkId: string, action: DrainAction) => {
      if (!api) return;
      dispatch({ type: 'ask', linkId, action });
      if (action === 'undrain') {
        // Undraining moves nothing off the link; later placements may use it again.
        dispatch({ type: 'listed', linkId, flows: [] });
        return;
      }
      const active = (jobs ?? []).filter((j) => j.id && j.state !== 'RELEASED');
      Promise.all(active.map((j) => api.getJob(j.id ?? ''))).then(
        (details) => {
          dispatch({ type: 'listed', linkId, flows: flowsOnLink(details, linkId) });
        },
        (e: unknown) => {
          dispatch({ type: 'failed', linkId, error: `reading the jobs on ${linkId}: ${message(e)}` });
        },
      );
    },
    [api, jobs],
  );

  const confirm = useCallback(() => {
    if (!api || state.phase !== 'confirming') return;
    const { linkId, action } = state;
    dispatch({ type: 'confirm' });
    (action === 'drain' ? api.drain(linkId) : api.undrain(linkId)).then(
      (outcome) => {
        dispatch({ type: 'done', linkId, outcome });
      },
      (e: unknown) => {
        dispatch({ type: 'failed', linkId, error: `${action} ${linkId}: ${message(e)}` });
      },
    );
  }, [api, state]);

  const close = useCallback(() => {
    dispatch({ type: 'close' });
  }, []);

  // Watching: the named flows' jobs, re-read after the call and after each job event.
  const watching = state.phase === 'watching' && !allMoved(state.moves) ? state : null;
  const watchedJobs = watching ? [...new Set(watching.flows.map((f) => f.jobId))].join(',') : '';
  const watchedLink = watching?.linkId ?? '';
  useEffect(() => {
    if (!api || watchedJobs === '') return;
    let live = true;
    Promise.all(watchedJobs.split(',').map((id) => api.getJob(id))).then(
      (details) => {
        if (live) dispatch({ type: 'jobs', linkId: watchedLink, jobs: details });
      },
      () => {
        // a failed re-read is retried on the next job event; the last answer stays shown
      },
    );
    return () => {
      live = false;
    };
  }, [api, watchedJobs, watchedLink, jobsStamp]);

  return { state, ask, confirm, close };
}
