// The only place that opens the collector's live load stream (/v1/links/load/stream). Read with
// fetch and eventsource-parser like /v1/events, so both streams share one reconnect policy (capped
// backoff) and the resume position (Last-Event-ID) is ours to keep.
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import type { Dispatch } from 'react';
import { LOAD_STREAM_PATH, parseHotspotEvent, parseLoadDelta, parseLoadSnapshot } from '../api/collectorApi';
import type { Fetch } from '../api/schedulerApi';
import { backoffMs } from './eventsState';
import type { LoadAction } from './loadState';

export interface LoadStreamOptions {
  dispatch: Dispatch<LoadAction>;
  /** Where to resume (Last-Event-ID: '<epoch>:<seq>'); read at each (re)connect. */
  position: () => string | null;
  fetchFn?: Fetch;
  delayMs?: (attempt: number) => number;
  /** The collector refused the token (or wants one): the operator is asked again; retries go on. */
  onUnauthorised?: () => void;
}

function toAction(msg: EventSourceMessage): LoadAction | null {
  const data: unknown = JSON.parse(msg.data);
  switch (msg.event) {
    case 'snapshot':
      return { type: 'snapshot', snapshot: parseLoadSnapshot(data) };
    case 'loads':
      return { type: 'delta', delta: parseLoadDelta(data) };
    case 'hotspot':
      return { type: 'hotspot', event: parseHotspotEvent(data) };
    default:
      return null; // a kind this UI does not know yet
  }
}

/** Opens the stream and keeps it open with capped backoff until the returned stop is called. */
export function openLoadStream({
  dispatch,
  position,
  fetchFn = (...a) => fetch(...a),
  delayMs = backoffMs,
  onUnauthorised,
}: LoadStreamOptions) {
  const abort = new AbortController();
  let attempt = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const connect = async () => {
    dispatch({ type: 'connecting' });
    const headers: Record<string, string> = { Accept: 'text/event-stream' };
    const from = position();
    if (from !== null) headers['Last-Event-ID'] = from;
    try {
      const res = await fetchFn(LOAD_STREAM_PATH, { headers, signal: abort.signal });
      if (res.status === 401 || res.status === 403) {
        onUnauthorised?.();
        throw new Error(`${LOAD_STREAM_PATH}: HTTP ${res.status}, the collector wants an operator token`);
      }
      if (!res.ok || !res.body) throw new Error(`${LOAD_STREAM_PATH}: HTTP ${res.status}`);
      const parser = createParser({
        onEvent: (msg) => {
          try {
            const action = toAction(msg);
            if (!action) return;
            if (action.type !== 'hotspot') attempt = 0; // a position arrived: the stream works
            dispatch(action);
          } catch (err) {
            console.warn('skipping a malformed load event', err);
          }
        },
      });
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        parser.feed(value);
      }
      throw new Error(`${LOAD_STREAM_PATH}: the server ended the stream`);
    } catch (err) {
      if (abort.signal.aborted) return;
      const wait = delayMs(attempt++);
      dispatch({ type: 'failed', error: err instanceof Error ? err.message : String(err), retryInMs: wait });
      timer = setTimeout(() => void connect(), wait);
    }
  };

  void connect();
  return () => {
    abort.abort();
    clearTimeout(timer);
  };
}
