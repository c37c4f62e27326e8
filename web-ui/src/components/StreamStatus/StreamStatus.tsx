import type { EventsState } from '../../data/eventsState';
import './StreamStatus.css';

const LABELS: Record<EventsState['connection'], string> = {
  connecting: 'Events: connecting…',
  open: 'Events: live',
  retrying: 'Events: disconnected',
  unauthorised: 'Events: token refused',
};

/** The event stream's connection state, with the last error and when it retries. */
export function StreamStatus({ state }: { state: EventsState }) {
  const retry =
    state.connection === 'retrying' && state.retryInMs !== null
      ? `, retrying in ${Math.ceil(state.retryInMs / 1000)} s`
      : '';
  return (
    <span
      className={`stream-status stream-status--${state.connection}`}
      role="status"
      title={state.lastError ?? undefined}
    >
      {LABELS[state.connection]}
      {retry}
      {state.connection === 'retrying' && state.lastError ? ` (${state.lastError})` : ''}
    </span>
  );
}
