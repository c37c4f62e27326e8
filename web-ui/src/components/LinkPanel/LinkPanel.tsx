import { useState, type SyntheticEvent } from 'react';
import type { FabricLink, LinkState } from '../../api/types';
import type { DrainAction, DrainState } from '../../data/drainState';
import './LinkPanel.css';

interface Props {
  links: readonly FabricLink[];
  linkStates: Readonly<Record<string, LinkState>>;
  selectedId: string | null;
  onSelect: (id: string | null) => void;
  drain: DrainState;
  /** Absent without an operator token: the link can be inspected, not drained. */
  onAsk?: (linkId: string, action: DrainAction) => void;
  onClose: () => void;
}

const moveText: Record<string, string> = { waiting: 'still on the link', gone: 'no longer placed' };

/**
 * The selected link (clicked on the graph or typed here: the keyboard way in) with its drain
 * action, and, after a drain, each named flow as it leaves the link.
 */
export function LinkPanel({ links, linkStates, selectedId, onSelect, drain, onAsk, onClose }: Props) {
  const [typed, setTyped] = useState('');
  const [unknown, setUnknown] = useState<string | null>(null);
  const link = links.find((l) => l.id === selectedId) ?? null;
  const state = link ? (linkStates[link.id] ?? 'up') : null;
  const submit = (e: SyntheticEvent<HTMLFormElement>) => {
    e.preventDefault();
    const id = typed.trim();
    if (links.some((l) => l.id === id)) {
      setUnknown(null);
      onSelect(id);
    } else setUnknown(id);
  };
  const busy = drain.phase === 'listing' || drain.phase === 'submitting';
  return (
    <section className="link-panel" aria-label="Link">
      <h2>Link</h2>
      <form onSubmit={submit} className="link-panel__find">
        <label htmlFor="link-find">Link id</label>
        <input
          id="link-find"
          list="link-ids"
          value={typed}
          placeholder={links[0]?.id}
          onChange={(e) => {
            setTyped(e.target.value);
          }}
        />
        <datalist id="link-ids">
          {links.slice(0, 2000).map((l) => (
            <option key={l.id} value={l.id} />
          ))}
        </datalist>
        <button type="submit">Show</button>
      </form>
      {unknown !== null && <p className="link-panel__error">No link {unknown} in this fabric.</p>}
      {link && state && (
        <div className="link-panel__detail">
          <p>
            <strong>{link.id}</strong>: {link.a.node} ↔ {link.b.node}, {link.capacityGbps} Gb/s,{' '}
            <span className={`link-panel__state link-panel__state--${state}`}>{state}</span>
          </p>
          {onAsk && state !== 'down' && (
            <button
              type="button"
              disabled={busy}
              onClick={() => {
                onAsk(link.id, state === 'drained' ? 'undrain' : 'drain');
              }}
            >
              {state === 'drained' ? 'Undrain' : 'Drain'}
            </button>
          )}
          <button
            type="button"
            onClick={() => {
              onSelect(null);
            }}
          >
            Deselect
          </button>
        </div>
      )}
      {drain.phase === 'failed' && (
        <p className="link-panel__error" role="alert">
          {drain.error}
        </p>
      )}
      {drain.phase === 'watching' && (
        <div className="link-panel__moves" aria-live="polite">
          <p>
            {drain.action === 'drain' ? 'Drained' : 'Undrained'} {drain.outcome.linkId}: now {drain.outcome.state},{' '}
            {drain.outcome.moved ?? 0} moved, {drain.outcome.unplaced ?? 0} without a path.
          </p>
          {drain.moves.length > 0 && (
            <ul aria-label={`Flows leaving ${drain.linkId}`}>
              {drain.moves.map((m) => (
                <li key={m.flow.flowId} data-status={m.status}>
                  {m.flow.jobName} {m.flow.src} → {m.flow.dst}:{' '}
                  {m.status === 'moved' ? `moved to ${m.nodes.join(' › ')}` : moveText[m.status]}
                </li>
              ))}
            </ul>
          )}
          <button type="button" onClick={onClose}>
            Done
          </button>
        </div>
      )}
    </section>
  );
}
