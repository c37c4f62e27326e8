import type { StreamConnection } from '../../data/eventsState';
import './StreamStatus.css';

const WORDS: Record<StreamConnection, string> = {
  connecting: 'connecting…',
  open: 'live',
  retrying: 'disconnected',
  unauthorised: 'token refused',
};

interface Props {
  /** What the stream carries: 'Events' (scheduler-api) or 'Load' (the collector). */
  name?: string;
  state: { connection: StreamConnection; retryInMs: number | null; lastError: string | null };
}

/** A stream's connection state, with the last error and when it retries. */
export function StreamStatus({ name = 'Events', state }: Props) {
  const retry =
    state.connection === 'retrying' && state.retryInMs !== null
      ? `, retrying in ${Math.ceil(state.retryInMs / 1000)} s`
      : '';
  return (
    <span
      className={`stream-status stream-status--${state.connection}`}
      role="status"
      aria-label={`${name} stream`}
      title={state.lastError ?? undefined}
    >
      {name}: {WORDS[state.connection]}
      {retry}
      {state.connection === 'retrying' && state.lastError ? ` (${state.lastError})` : ''}
    </span>
  );
}
