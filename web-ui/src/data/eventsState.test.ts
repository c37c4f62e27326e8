import { describe, expect, it } from 'vitest';
import {
  backoffMs,
  eventsReducer,
  initialEventsState,
  MAX_EVENTS,
  parseEventData,
  type EventsState,
  type FabricEvent,
} from './eventsState';

const ev = (id: number, type = 'job-created'): FabricEvent => ({
  id,
  type,
  subject: `job-${id}`,
  at: '2026-11-25T12:00:00Z',
  payload: {},
});
const apply = (s: EventsState, ...events: FabricEvent[]) =>
  events.reduce((acc, event) => eventsReducer(acc, { type: 'event', event }), s);

describe('eventsReducer', () => {
  it('opens on hello and stands where the server says', () => {
    const s = eventsReducer(initialEventsState, { type: 'hello', id: 41 });
    expect(s.connection).toBe('open');
    expect(s.lastEventId).toBe(41);
  });

  it('applies new events newest first and bumps the stamps their type affects', () => {
    let s = apply(initialEventsState, ev(1, 'job-created'), ev(2, 'link-drained'), ev(3, 'agent-rejected'));
    expect(s.recent.map((e) => e.id)).toEqual([3, 2, 1]);
    expect(s.lastEventId).toBe(3);
    expect(s.jobsStamp).toBe(2); // job-created, and link-drained: a drain's moves are announced only there
    expect(s.fabricStamp).toBe(2); // job-created and link-drained
    s = apply(s, ev(4, 'flows-replaced'), ev(5, 'link-undrained'));
    expect([s.jobsStamp, s.fabricStamp]).toEqual([4, 4]);
  });

  it('drops events a replay repeats', () => {
    const s = apply(initialEventsState, ev(5), ev(6));
    const replayed = apply(s, ev(5), ev(6));
    expect(replayed).toBe(s);
  });

  it('applies an event whose id is below one already applied: ids are taken at insert, streams fed at commit', () => {
    // A re-placement's transaction took id 9 and committed after the one that took id 10.
    const s = apply(initialEventsState, ev(10, 'agent-rejected'), ev(9, 'flows-replaced'));
    expect(s.recent.map((e) => e.id)).toEqual([9, 10]);
    expect(s.lastEventId).toBe(10);
    expect(s.jobsStamp).toBe(1);
    // The same after a hello that already named 10 (the stream opened between the two commits).
    const afterHello = apply(eventsReducer(initialEventsState, { type: 'hello', id: 10 }), ev(9, 'flows-replaced'));
    expect(afterHello.recent.map((e) => e.id)).toEqual([9]);
    expect(afterHello.lastEventId).toBe(10);
  });

  it('keeps at most MAX_EVENTS', () => {
    const s = apply(initialEventsState, ...Array.from({ length: MAX_EVENTS + 5 }, (_, i) => ev(i + 1)));
    expect(s.recent).toHaveLength(MAX_EVENTS);
    expect(s.recent[0]!.id).toBe(MAX_EVENTS + 5);
  });

  it('records a failure with its retry delay and keeps what it had', () => {
    const s = apply(initialEventsState, ev(1));
    const failed = eventsReducer(s, { type: 'failed', error: 'HTTP 502', retryInMs: 2000 });
    expect(failed).toMatchObject({ connection: 'retrying', lastError: 'HTTP 502', retryInMs: 2000, lastEventId: 1 });
    expect(failed.recent).toBe(s.recent);
    expect(eventsReducer(failed, { type: 'hello', id: 1 })).toMatchObject({
      connection: 'open',
      lastError: null,
      retryInMs: null,
    });
  });
});

describe('backoffMs', () => {
  it('doubles from 500 ms and stops at 30 s', () => {
    expect([0, 1, 2, 3].map(backoffMs)).toEqual([500, 1000, 2000, 4000]);
    expect(backoffMs(6)).toBe(30_000);
    expect(backoffMs(60)).toBe(30_000);
  });
});

describe('parseEventData', () => {
  it('reads scheduler-api event data', () => {
    expect(parseEventData('{"id":7,"type":"link-drained","subject":"l1","at":"t","payload":{"moved":2}}')).toEqual({
      id: 7,
      type: 'link-drained',
      subject: 'l1',
      at: 't',
      payload: { moved: 2 },
    });
  });
  it('names the bad field', () => {
    expect(() => parseEventData('{"id":"7","type":"x"}')).toThrow('event.id: must be a number');
    expect(() => parseEventData('{"id":7}')).toThrow('event.type: must be a string');
  });
});
