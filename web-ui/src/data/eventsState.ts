// Pure state of scheduler-api's event stream (/v1/events): the connection, where we stand
// (Last-Event-ID), the recent events, and counters that tell views to re-read jobs or the fabric.

export type StreamConnection = 'connecting' | 'open' | 'retrying' | 'unauthorised';

/** One event as scheduler-api sends it: {id, type, subject, at, payload}. */
export interface FabricEvent {
  id: number;
  type: string;
  subject: string;
  at: string;
  payload: unknown;
}

export interface EventsState {
  connection: StreamConnection;
  /** The last event id applied; a reconnect asks to replay from here. -1: none yet. */
  lastEventId: number;
  /** When the next reconnect happens (ms after the failure), while retrying. */
  retryInMs: number | null;
  lastError: string | null;
  /** Newest first, at most MAX_EVENTS. */
  recent: FabricEvent[];
  /** Bumped by every event that changes the job list or a job's paths. */
  jobsStamp: number;
  /** Bumped by every event that changes link states or reservations. */
  fabricStamp: number;
}

export const MAX_EVENTS = 200;

export type EventsAction =
  | { type: 'connecting' }
  | { type: 'hello'; id: number }
  | { type: 'event'; event: FabricEvent }
  | { type: 'failed'; error: string; retryInMs: number }
  | { type: 'unauthorised' };

export const initialEventsState: EventsState = {
  connection: 'connecting',
  lastEventId: -1,
  retryInMs: null,
  lastError: null,
  recent: [],
  jobsStamp: 0,
  fabricStamp: 0,
};

// A drain or undrain moves flows and says so only in its own event (with the count moved).
const JOB_EVENTS = new Set(['job-created', 'job-released', 'flows-replaced', 'link-drained', 'link-undrained']);
const FABRIC_EVENTS = new Set(['link-drained', 'link-undrained', 'flows-replaced', 'job-created', 'job-released']);

export function eventsReducer(state: EventsState, action: EventsAction): EventsState {
  switch (action.type) {
    case 'connecting':
      return { ...state, connection: 'connecting', retryInMs: null };
    case 'hello':
      // The hello's id is where the server says we now stand (after any replay).
      return {
        ...state,
        connection: 'open',
        retryInMs: null,
        lastError: null,
        lastEventId: Math.max(state.lastEventId, action.id),
      };
    case 'event': {
      const e = action.event;
      // A replay after reconnect can repeat what we already applied: drop ids we hold. Not every id
      // below lastEventId: ids are taken at insert, streams are fed at commit, so an event of a
      // longer transaction can arrive after a later id (or after the hello that named it).
      if (state.recent.some((r) => r.id === e.id)) return state;
      return {
        ...state,
        connection: 'open',
        lastEventId: Math.max(state.lastEventId, e.id),
        recent: [e, ...state.recent].slice(0, MAX_EVENTS),
        jobsStamp: JOB_EVENTS.has(e.type) ? state.jobsStamp + 1 : state.jobsStamp,
        fabricStamp: FABRIC_EVENTS.has(e.type) ? state.fabricStamp + 1 : state.fabricStamp,
      };
    }
    case 'failed':
      return { ...state, connection: 'retrying', lastError: action.error, retryInMs: action.retryInMs };
    case 'unauthorised':
      return { ...state, connection: 'unauthorised', retryInMs: null };
  }
}

/** Capped exponential backoff: 500 ms, 1 s, 2 s, ... up to 30 s. */
export function backoffMs(attempt: number): number {
  return Math.min(30_000, 500 * 2 ** Math.max(0, attempt));
}

/** Reads one SSE data field as a FabricEvent, or names what is wrong with it. */
export function parseEventData(data: string): FabricEvent {
  const v = JSON.parse(data) as Record<string, unknown>;
  if (typeof v.id !== 'number') throw new Error('event.id: must be a number');
  if (typeof v.type !== 'string') throw new Error('event.type: must be a string');
  return {
    id: v.id,
    type: v.type,
    subject: typeof v.subject === 'string' ? v.subject : '',
    at: typeof v.at === 'string' ? v.at : '',
    payload: v.payload,
  };
}
