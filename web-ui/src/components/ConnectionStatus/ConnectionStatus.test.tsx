// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FabricSnapshot } from '../../api/types';
import { ConnectionStatus } from './ConnectionStatus';

afterEach(cleanup);

const held = { fabricId: 'f', version: 12 } as FabricSnapshot;

describe('ConnectionStatus', () => {
  it('marks a kept snapshot as the last one received when loading fails', () => {
    const onRetry = vi.fn();
    render(
      <ConnectionStatus
        state={{ status: 'error', snapshot: held, failures: 3, error: 'No controller answered at /fabric' }}
        onRetry={onRetry}
      />,
    );
    const text = screen.getByRole('alert').textContent;
    expect(text).toContain('No controller answered at /fabric');
    expect(text).toContain('showing the last snapshot received (version 12)');
    expect(text).toContain('3 failed');
    fireEvent.click(screen.getByRole('button', { name: 'Retry now' }));
    expect(onRetry).toHaveBeenCalledOnce();
  });

  it('does not claim a snapshot when none was received', () => {
    render(<ConnectionStatus state={{ status: 'error', failures: 1, error: 'x' }} onRetry={vi.fn()} />);
    expect(screen.getByRole('alert').textContent).not.toContain('last snapshot');
  });
});
