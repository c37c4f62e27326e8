import { useEffect, useRef, type KeyboardEvent } from 'react';
import type { DrainState } from '../../data/drainState';
import './DrainDialog.css';

interface Props {
  drain: DrainState;
  onConfirm: () => void;
  onCancel: () => void;
}

const FOCUSABLE = 'button:not([disabled]), [href], input:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** Tab and Shift+Tab cycle through the dialog's own controls, never out of it. */
function trapTab(e: KeyboardEvent<HTMLElement>) {
  if (e.key !== 'Tab') return;
  const inside = [...e.currentTarget.querySelectorAll<HTMLElement>(FOCUSABLE)];
  const first = inside[0];
  const last = inside[inside.length - 1];
  if (!first || !last) {
    e.preventDefault();
    return;
  }
  const at = document.activeElement;
  if (e.shiftKey && (at === first || !e.currentTarget.contains(at))) {
    e.preventDefault();
    last.focus();
  } else if (!e.shiftKey && (at === last || !e.currentTarget.contains(at))) {
    e.preventDefault();
    first.focus();
  }
}

/**
 * The confirmation before a drain or undrain: names every flow that will move off the link.
 * Modal: focus starts on Cancel (the safe choice), Tab stays inside, Escape cancels, and focus
 * goes back to where it was (the Drain button) when the dialog closes.
 */
export function DrainDialog({ drain, onConfirm, onCancel }: Props) {
  const cancelRef = useRef<HTMLButtonElement>(null);
  const open = drain.phase === 'listing' || drain.phase === 'confirming' || drain.phase === 'submitting';
  useEffect(() => {
    if (!open) return;
    const opener = document.activeElement;
    cancelRef.current?.focus();
    return () => {
      if (opener instanceof HTMLElement && opener.isConnected) opener.focus();
    };
  }, [open]);
  if (!open) return null;
  const verb = drain.action === 'drain' ? 'Drain' : 'Undrain';
  const flows = drain.phase === 'listing' ? null : drain.flows;
  return (
    <div className="drain-dialog__backdrop">
      <div
        className="drain-dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby="drain-dialog-title"
        onKeyDown={(e) => {
          if (e.key === 'Escape' && drain.phase !== 'submitting') onCancel();
          trapTab(e);
        }}
      >
        <h2 id="drain-dialog-title">
          {verb} {drain.linkId}?
        </h2>
        {flows === null ? (
          <p>Reading which flows use {drain.linkId}…</p>
        ) : drain.action === 'undrain' ? (
          <p>The link goes back in service; no flow is moved off it, later placements may use it.</p>
        ) : flows.length === 0 ? (
          <p>No placed flow uses {drain.linkId}; nothing moves. New placements will avoid it.</p>
        ) : (
          <>
            <p>
              {flows.length === 1 ? '1 flow' : `${flows.length} flows`} will move off {drain.linkId}; new placements
              will avoid it:
            </p>
            <ul aria-label="Flows that will move">
              {flows.map((f) => (
                <li key={f.flowId}>
                  {f.jobName} {f.src} → {f.dst} (now {f.nodes.join(' › ')})
                </li>
              ))}
            </ul>
          </>
        )}
        <div className="drain-dialog__actions">
          <button type="button" ref={cancelRef} onClick={onCancel} disabled={drain.phase === 'submitting'}>
            Cancel
          </button>
          <button type="button" onClick={onConfirm} disabled={drain.phase !== 'confirming'}>
            {drain.phase === 'submitting' ? `${verb}ing…` : `${verb} ${drain.linkId}`}
          </button>
        </div>
      </div>
    </div>
  );
}
