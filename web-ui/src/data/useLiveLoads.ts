// The collector's live load stream as React state: opened once, kept open with capped backoff.
import { useEffect, useReducer, useRef } from 'react';
import type { Fetch } from '../api/schedulerApi';
import { openLoadStream } from './loadStream';
import { initialLoadState, loadReducer, loadStreamPosition } from './loadState';

export function useLiveLoads(fetchFn: Fetch = (...a) => fetch(...a)) {
  const [state, dispatch] = useReducer(loadReducer, initialLoadState);
  const position = useRef<string | null>(null);
  position.current = loadStreamPosition(state);
  const fetchRef = useRef(fetchFn);
  useEffect(
    () => openLoadStream({ dispatch, position: () => position.current, fetchFn: (...a) => fetchRef.current(...a) }),
    [],
  );
  return state;
}
