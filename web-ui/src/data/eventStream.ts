// The only place that opens scheduler-api's event stream. EventSource cannot send an
// Authorization header, so this reads the SSE body with fetch and eventsource-parser.
import { createParser } from 'eventsource-parser';
import type { Dispatch } from 'react';
import type { Fetch } from '../api/schedulerApi';
import { backoffMs, MAX_EVENTS, parseEventData, type EventsAction } from './eventsState';

export interface StreamOptions {
  token: string;
  dispatch: Dispatch<EventsAction>;
  /** Where to resume (Last-Event-ID); read at each (re)connect. */
  lastEventId: () => number;
  fetchFn?: Fetch;
  delayMs?: (attempt: number) => number;
}

/** Opens /v1/events and keeps it open with capped backoff until the returned stop is called or the token is refused. */
export function openEventStream({
  token,
  dispatch,
  lastEventId,
  fetchFn = (...a) => fetch(...a),
  delayMs = backoffMs,
}: StreamOptions) {
  const abort = new AbortController();
  let attempt = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const connect = async () => {
    dispatch({ type: 'connecting' });
    const headers: Record<string, string> = { Authorization: `Bearer ${token}`, Accept: 'text/event-stream' };
    const from = lastEventId();
    if (from >= 0) headers['Last-Event-ID'] = String(from);
    // A first connection asks for the latest events too: a dashboard opened just after a
    // re-placement lists it, as it lists the collector's hotspots from before it opened.
    const url = from >= 0 ? '/v1/events' : `/v1/events?recent=${MAX_EVENTS}`;
    try {
      const res = await fetchFn(url, { headers, signal: abort.signal });
      if (res.status === 401 || res.status === 403) {
        dispatch({ type: 'unauthorised' });
        return;
      }
      if (!res.ok || !res.body) throw new Error(`/v1/events: HTTP ${res.status}`);
      const parser = createParser({
        onEvent: (msg) => {
          if (msg.event === 'hello') {
            attempt = 0;
            dispatch({ type: 'hello', id: Number(msg.id ?? -1) });
            return;
          }
          try {
            dispatch({ type: 'event', event: parseEventData(msg.data) });
          } catch (err) {
            console.warn('skipping a malformed event', err);
          }
        },
      });
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        parser.feed(value);
      }
      throw new Error('/v1/events: the server ended the stream');
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
