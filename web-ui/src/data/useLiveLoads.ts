// The collector's live load stream as React state: opened once per token, kept open with capped
// backoff; the operator token goes along (a deployment's collector closes its reads).
import { useEffect, useReducer, useRef } from 'react';
import type { Fetch } from '../api/schedulerApi';
import { withToken } from '../api/withToken';
import { openLoadStream } from './loadStream';
import { initialLoadState, loadReducer, loadStreamPosition } from './loadState';

export function useLiveLoads(
  fetchFn: Fetch = (...a) => fetch(...a),
  token: string | null = null,
  onUnauthorised?: () => void,
) {
  const [state, dispatch] = useReducer(loadReducer, initialLoadState);
  const position = useRef<string | null>(null);
  position.current = loadStreamPosition(state);
  const fetchRef = useRef(fetchFn);
  const refused = useRef(onUnauthorised);
  useEffect(() => {
    refused.current = onUnauthorised;
  }, [onUnauthorised]);
  useEffect(
    () =>
      openLoadStream({
        dispatch,
        position: () => position.current,
        fetchFn: withToken((...a) => fetchRef.current(...a), token),
        onUnauthorised: () => refused.current?.(),
      }),
    [token],
  );
  return state;
}
