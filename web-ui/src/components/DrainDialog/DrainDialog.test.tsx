// @vitest-environment jsdom
// The drain confirmation keeps the keyboard inside it and gives focus back when it closes.
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DrainState } from '../../data/drainState';
import { DrainDialog } from './DrainDialog';

const confirming = {
  phase: 'confirming',
  action: 'drain',
  linkId: 'leaf1-spine1',
  flows: [
    { flowId: 'j1/0', jobId: 'j1', jobName: 'ring-a', src: 'nic1', dst: 'nic3', nodes: ['nic1', 'leaf1', 'spine1'] },
  ],
} as unknown as DrainState;

/** A Drain button that opens the dialog, as the Link panel does. */
function Harness({ onCancel }: { onCancel: () => void }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        onClick={() => {
          setOpen(true);
        }}
      >
        Drain
      </button>
      <DrainDialog
        drain={open ? confirming : { phase: 'idle' }}
        onConfirm={() => undefined}
        onCancel={() => {
          onCancel();
          setOpen(false);
        }}
      />
    </>
  );
}

afterEach(cleanup);

describe('DrainDialog', () => {
  it('starts on Cancel, cycles Tab and Shift+Tab inside, cancels on Escape and returns focus', () => {
    const onCancel = vi.fn();
    render(<Harness onCancel={onCancel} />);
    const opener = screen.getByRole('button', { name: 'Drain' });
    opener.focus();
    fireEvent.click(opener);
    const dialog = screen.getByRole('dialog', { name: 'Drain leaf1-spine1?' });
    const cancel = screen.getByRole('button', { name: 'Cancel' });
    const confirm = screen.getByRole('button', { name: 'Drain leaf1-spine1' });
    expect(document.activeElement).toBe(cancel);
    // from the last control Tab wraps to the first, from the first Shift+Tab to the last
    confirm.focus();
    fireEvent.keyDown(dialog, { key: 'Tab' });
    expect(document.activeElement).toBe(cancel);
    fireEvent.keyDown(dialog, { key: 'Tab', shiftKey: true });
    expect(document.activeElement).toBe(confirm);
    fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(onCancel).toHaveBeenCalledOnce();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);
  });
});
