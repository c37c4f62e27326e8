// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/client';
import type { FabricPlan, FabricSnapshot } from '../../api/types';
import type { LoadSnapshot } from '../../data/useSnapshot';
import { readContract } from '../../testing/contracts';
import type { FabricGraphProps } from '../FabricGraph/FabricGraph';
import { App } from './App';

const snapshot: FabricSnapshot = {
  schemaVersion: 1,
  fabricId: 'ls-2x2',
  version: 9,
  generatedAt: '2026-11-21T12:00:00Z',
  fabric: readContract('examples/leaf-spine-2x2.json'),
  plan: {} as FabricPlan, // the dashboard does not read the plan yet
  linkStates: {},
};

// cytoscape needs a canvas, which jsdom lacks: the App takes its graph renderer as a prop.
function GraphStub({ fabric }: FabricGraphProps) {
  return <div data-testid="graph">{`${fabric.nodes.length} nodes, ${fabric.links.length} links`}</div>;
}

/** A load function whose answers the test releases one by one. */
function controllable() {
  const pending: { resolve: (s: FabricSnapshot) => void; reject: (e: unknown) => void }[] = [];
  const load = vi.fn<LoadSnapshot>(() => new Promise((resolve, reject) => pending.push({ resolve, reject })));
  return { load, pending };
}

// The operator's reads (scheduler-api, collector) never answer in these tests: they test the fabric.
const quiet = { fetchFn: () => new Promise<Response>(() => undefined) };

const never = { retryDelayMs: () => 3_600_000, pollMs: 3_600_000 }; // no timers fire within a test

afterEach(cleanup);

describe('App', () => {
  it('shows loading, then the fabric with nodes by role', async () => {
    const { load, pending } = controllable();
    render(<App operator={quiet} load={load} Graph={GraphStub} timing={never} />);
    expect(screen.getByRole('status', { name: 'Controller connection' }).textContent).toContain('Loading the fabric');
    expect(screen.queryByTestId('graph')).toBeNull();

    await act(async () => {
      pending[0]!.resolve(snapshot);
    });

    expect(screen.getByRole('status', { name: 'Controller connection' }).textContent).toContain(
      'Fabric ls-2x2 · version 9',
    );
    expect(screen.getByTestId('graph').textContent).toBe('8 nodes, 8 links');
    const panel = screen.getByRole('complementary', { name: 'Nodes by role' });
    expect(panel.textContent).toContain('Nodes (8)');
    expect(panel.querySelectorAll('summary')).toHaveLength(3);
    expect([...panel.querySelectorAll('summary')].map((s) => s.textContent)).toEqual([
      'Spines 2',
      'Leaves 2',
      'NICs 4',
    ]);
  });

  it('says so when no controller answers, shows no fabric, and retries on request', async () => {
    const { load, pending } = controllable();
    render(<App operator={quiet} load={load} Graph={GraphStub} timing={never} />);
    await act(async () => {
      pending[0]!.reject(new ApiError('No controller answered at /fabric', 'unreachable'));
    });

    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('No controller answered at /fabric');
    expect(screen.getByText(/no fabric snapshot has been received/)).toBeTruthy();
    expect(screen.queryByTestId('graph')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Retry now' }));
    expect(load).toHaveBeenCalledTimes(2);
    expect(screen.getByRole('status', { name: 'Controller connection' }).textContent).toContain('Retrying');
    await act(async () => {
      pending[1]!.resolve(snapshot);
    });
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByTestId('graph')).toBeTruthy();
  });

  it('retries on its own after the backoff delay', async () => {
    vi.useFakeTimers();
    try {
      const { load, pending } = controllable();
      const delays: number[] = [];
      render(
        <App
          operator={quiet}
          load={load}
          Graph={GraphStub}
          timing={{ retryDelayMs: (n) => (delays.push(n), 5000), pollMs: 3_600_000 }}
        />,
      );
      await act(async () => {
        pending[0]!.reject(new Error('socket hang up'));
      });
      expect(screen.getByRole('alert').textContent).toContain('Loading the fabric failed: socket hang up');
      expect(load).toHaveBeenCalledTimes(1);
      await act(async () => vi.advanceTimersByTime(5000));
      expect(load).toHaveBeenCalledTimes(2);
      expect(delays).toEqual([1]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('polls while loaded and shows a newer version without a loading flash', async () => {
    vi.useFakeTimers();
    try {
      const { load, pending } = controllable();
      render(
        <App operator={quiet} load={load} Graph={GraphStub} timing={{ retryDelayMs: () => 3_600_000, pollMs: 5000 }} />,
      );
      await act(async () => {
        pending[0]!.resolve(snapshot);
      });
      await act(async () => vi.advanceTimersByTime(5000));
      expect(load).toHaveBeenCalledTimes(2);
      expect(screen.getByRole('status', { name: 'Controller connection' }).textContent).toContain('version 9');
      await act(async () => {
        pending[1]!.resolve({ ...snapshot, version: 10 });
      });
      expect(screen.getByRole('status', { name: 'Controller connection' }).textContent).toContain('version 10');
    } finally {
      vi.useRealTimers();
    }
  });
});
