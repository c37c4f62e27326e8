// @vitest-environment jsdom
// A fabric of 1,000+ switches starts collapsed (one node per pod) and expands on demand.
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { FabricPlan, FabricSnapshot } from '../../api/types';
import type { FabricGraphProps } from '../FabricGraph/FabricGraph';
import { App } from './App';

const PODS = 10;
const LEAVES = 100;
const snapshot: FabricSnapshot = {
  schemaVersion: 1,
  fabricId: 'big',
  version: 1,
  generatedAt: '2026-11-25T12:00:00Z',
  plan: {} as FabricPlan, // the dashboard does not read the plan yet
  linkStates: {},
  fabric: {
    schemaVersion: 1,
    id: 'big',
    nodes: [
      { id: 'ss', role: 'superspine' },
      ...Array.from({ length: PODS }, (_, p) =>
        Array.from({ length: LEAVES }, (_, l) => ({ id: `leaf-${p}-${l}`, role: 'leaf' as const, pod: p })),
      ).flat(),
    ],
    links: Array.from({ length: PODS }, (_, p) =>
      Array.from({ length: LEAVES }, (_, l) => ({
        id: `ss-leaf-${p}-${l}`,
        a: { node: 'ss', port: 'eth1' },
        b: { node: `leaf-${p}-${l}`, port: 'eth1' },
        capacityGbps: 400,
      })),
    ).flat(),
  },
};

function GraphStub({ fabric, onSelectNode, onSelectLink }: FabricGraphProps) {
  return (
    <div data-testid="graph">
      {`${fabric.nodes.length} nodes, ${fabric.links.length} links`}
      <button type="button" onClick={() => onSelectNode?.('group:pod 3')}>
        open pod 3
      </button>
      <button type="button" onClick={() => onSelectLink?.('group:group:pod 4|group:superspines')}>
        open bundle to pod 4
      </button>
    </div>
  );
}

const quiet = { fetchFn: () => new Promise<Response>(() => undefined), hotspotPollMs: 3_600_000 };

afterEach(cleanup);

describe('App (collapsed view)', () => {
  it('starts with a node per pod and expands a pod, a bundle, a searched node’s pod, or everything', async () => {
    render(<App load={() => Promise.resolve(snapshot)} Graph={GraphStub} operator={quiet} />);
    const graph = await screen.findByTestId('graph');
    expect(graph.textContent).toContain('11 nodes, 10 links'); // the super-spine group + 10 pods
    fireEvent.click(screen.getByRole('button', { name: 'open pod 3' }));
    expect(graph.textContent).toContain(`${11 - 1 + LEAVES} nodes`);
    fireEvent.click(screen.getByRole('button', { name: 'open bundle to pod 4' }));
    expect(graph.textContent).toContain(`${11 - 3 + 2 * LEAVES + 1} nodes`); // pod 4 and the super-spines opened
    const search = screen.getByRole('combobox', { name: 'Search node id' });
    fireEvent.change(search, { target: { value: 'leaf-7-42' } });
    fireEvent.submit(search);
    expect(graph.textContent).toContain(`${11 - 4 + 3 * LEAVES + 1} nodes`);
    fireEvent.click(screen.getByRole('button', { name: 'Expand all' }));
    expect(graph.textContent).toContain(`${PODS * LEAVES + 1} nodes, ${PODS * LEAVES} links`);
    fireEvent.click(screen.getByRole('button', { name: 'Collapse into groups' }));
    expect(graph.textContent).toContain('11 nodes, 10 links');
  }, 60_000); // a thousand nodes in jsdom on a shared machine
});
