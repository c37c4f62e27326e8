import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import { ApiError, fetchSnapshot } from '../api/client';
import type { FabricSnapshot } from '../api/types';
import { initialSnapshotState, retryDelayMs, snapshotReducer, type SnapshotState } from './snapshotState';

export type LoadSnapshot = (signal: AbortSignal) => Promise<FabricSnapshot>;

const defaultLoad: LoadSnapshot = (signal) => fetchSnapshot({ signal });

/**
 * Loads the fabric snapshot, retrying on its own with capped backoff after a failure; `retry`
 * tries again at once. The only place the UI talks to the controller.
 */
export function useSnapshot(load: LoadSnapshot = defaultLoad, delayMs: (failures: number) => number = retryDelayMs) {
  const [state, dispatch] = useReducer(snapshotReducer, initialSnapshotState);
  const [attempt, setAttempt] = useState(0);
  const failuresRef = useRef(0);
  failuresRef.current = state.failures;

  useEffect(() => {
    const abort = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    dispatch({ type: 'request' });
    load(abort.signal).then(
      (snapshot) => dispatch({ type: 'received', snapshot }),
      (e: unknown) => {
        if (abort.signal.aborted) return;
        dispatch({ type: 'failed', error: describe(e) });
        timer = setTimeout(() => setAttempt((a) => a + 1), delayMs(failuresRef.current + 1));
      },
    );
    return () => {
      abort.abort();
      if (timer !== undefined) clearTimeout(timer);
    };
  }, [attempt, load, delayMs]);

  const retry = useCallback(() => setAttempt((a) => a + 1), []);
  return { state, retry } as { state: SnapshotState; retry: () => void };
}

function describe(e: unknown): string {
  if (e instanceof ApiError) return e.message;
  return `Loading the fabric failed: ${e instanceof Error ? e.message : String(e)}`;
}
