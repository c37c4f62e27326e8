import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import { ApiError, fetchSnapshot } from '../api/client';
import type { FabricSnapshot } from '../api/types';
import { initialSnapshotState, POLL_MS, retryDelayMs, snapshotReducer } from './snapshotState';

/** Reads a snapshot; `token` is the operator's, when signed in (a deployment closes the reads). */
export type LoadSnapshot = (signal: AbortSignal, token: string | null) => Promise<FabricSnapshot>;

const defaultLoad: LoadSnapshot = (signal, token) => fetchSnapshot({ signal, token });

export interface SnapshotTiming {
  /** Delay before the automatic retry after the n-th consecutive failure. */
  retryDelayMs?: (failures: number) => number;
  /** Delay between refreshes while a snapshot is shown. */
  pollMs?: number;
}

/**
 * Loads the fabric snapshot and keeps it fresh by polling; after a failure it retries on its own
 * with capped backoff, and `retry` tries again at once; a new token reads again at once. The only
 * place the UI talks to the controller.
 */
export function useSnapshot(
  load: LoadSnapshot = defaultLoad,
  timing: SnapshotTiming = {},
  token: string | null = null,
  onUnauthorised?: () => void,
) {
  // Read through a ref: callers may pass a fresh object each render, which must not restart loading.
  // Refs are written after render (effects), never during it: React may render without committing.
  const timingRef = useRef(timing);
  useEffect(() => {
    timingRef.current = timing;
  });
  const [state, dispatch] = useReducer(snapshotReducer, initialSnapshotState);
  const [attempt, setAttempt] = useState(0);
  const failuresRef = useRef(0);
  useEffect(() => {
    failuresRef.current = state.failures;
  }, [state.failures]);
  const refused = useRef(onUnauthorised);
  useEffect(() => {
    refused.current = onUnauthorised;
  }, [onUnauthorised]);

  useEffect(() => {
    const abort = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    dispatch({ type: 'request' });
    const again = (ms: number) => {
      timer = setTimeout(() => {
        setAttempt((a) => a + 1);
      }, ms);
    };
    load(abort.signal, token).then(
      (snapshot) => {
        if (abort.signal.aborted) return;
        dispatch({ type: 'received', snapshot });
        again(timingRef.current.pollMs ?? POLL_MS);
      },
      (e: unknown) => {
        if (abort.signal.aborted) return;
        if (e instanceof ApiError && e.kind === 'unauthorised') refused.current?.();
        dispatch({ type: 'failed', error: describe(e) });
        again((timingRef.current.retryDelayMs ?? retryDelayMs)(failuresRef.current + 1));
      },
    );
    return () => {
      abort.abort();
      if (timer !== undefined) clearTimeout(timer);
    };
  }, [attempt, load, token]);

  const retry = useCallback(() => {
    setAttempt((a) => a + 1);
  }, []);
  return { state, retry };
}

function describe(e: unknown): string {
  if (e instanceof ApiError) return e.message;
  return `Loading the fabric failed: ${e instanceof Error ? e.message : String(e)}`;
}
