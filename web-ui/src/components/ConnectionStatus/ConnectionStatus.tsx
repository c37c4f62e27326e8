import type { SnapshotState } from '../../data/snapshotState';
import './ConnectionStatus.css';

interface Props {
  state: SnapshotState;
  onRetry: () => void;
}

/** Where the data on screen comes from, and what to do when it does not come. */
export function ConnectionStatus({ state, onRetry }: Props) {
  if (state.status === 'loading') {
    return (
      <div className="connection connection--loading" role="status" aria-label="Controller connection">
        {state.failures > 0 ? 'Retrying the controller…' : 'Loading the fabric from the controller…'}
      </div>
    );
  }
  if (state.status === 'error') {
    return (
      <div className="connection connection--error" role="alert">
        <span>{state.error}</span>
        {state.snapshot && <span> · showing the last snapshot received (version {state.snapshot.version})</span>}
        <span className="connection__hint"> · retrying on its own ({state.failures} failed)</span>
        <button type="button" onClick={onRetry}>
          Retry now
        </button>
      </div>
    );
  }
  const { fabricId, version, generatedAt } = state.snapshot;
  return (
    <div className="connection connection--loaded" role="status" aria-label="Controller connection">
      Fabric <strong>{fabricId}</strong> · version {version} · generated {generatedAt}
    </div>
  );
}
