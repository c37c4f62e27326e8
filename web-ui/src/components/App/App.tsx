import type { ComponentType } from 'react';
import { useSnapshot, type LoadSnapshot, type SnapshotTiming } from '../../data/useSnapshot';
import { ConnectionStatus } from '../ConnectionStatus/ConnectionStatus';
import { FabricGraph, type FabricGraphProps } from '../FabricGraph/FabricGraph';
import { RolePanel } from '../RolePanel/RolePanel';
import './App.css';

interface Props {
  /** Where snapshots come from; GET /fabric unless a test says otherwise. */
  load?: LoadSnapshot;
  /** The graph renderer; tests swap it because cytoscape needs a real canvas. */
  Graph?: ComponentType<FabricGraphProps>;
  /** Retry and poll delays; tests shorten or stretch them. */
  timing?: SnapshotTiming;
}

export function App({ load, Graph = FabricGraph, timing }: Props) {
  const { state, retry } = useSnapshot(load, timing);
  const snapshot = state.snapshot;
  return (
    <div className="app">
      <header className="app__header">
        <h1>Weft</h1>
        <ConnectionStatus state={state} onRetry={retry} />
      </header>
      <main className="app__main">
        {snapshot ? (
          <>
            <RolePanel nodes={snapshot.fabric.nodes} />
            <Graph fabric={snapshot.fabric} linkStates={snapshot.linkStates} />
          </>
        ) : (
          state.status === 'error' && (
            <p className="app__empty">Nothing to show: no fabric snapshot has been received from the controller.</p>
          )
        )}
      </main>
    </div>
  );
}
