import { useMemo, type ComponentType } from 'react';
import { useOperatorData, type OperatorDataOptions } from '../../data/useOperatorData';
import { useSnapshot, type LoadSnapshot, type SnapshotTiming } from '../../data/useSnapshot';
import { linkLoads } from '../../domain/heat';
import { jobLinkIds } from '../../domain/jobPaths';
import { ConnectionStatus } from '../ConnectionStatus/ConnectionStatus';
import { FabricGraph, type FabricGraphProps } from '../FabricGraph/FabricGraph';
import type { LinkOverlay } from '../FabricGraph/cytoscapeModel';
import { HeatLegend } from '../HeatLegend/HeatLegend';
import { JobsPanel } from '../JobsPanel/JobsPanel';
import { RolePanel } from '../RolePanel/RolePanel';
import { StreamStatus } from '../StreamStatus/StreamStatus';
import { TokenPrompt } from '../TokenPrompt/TokenPrompt';
import './App.css';

interface Props {
  /** Where snapshots come from; GET /fabric unless a test says otherwise. */
  load?: LoadSnapshot;
  /** The graph renderer; tests swap it because cytoscape needs a real canvas. */
  Graph?: ComponentType<FabricGraphProps>;
  /** Retry and poll delays; tests shorten or stretch them. */
  timing?: SnapshotTiming;
  /** How the operator's reads (scheduler-api, collector) are fetched; tests pass a fake server. */
  operator?: OperatorDataOptions;
}

export function App({ load, Graph = FabricGraph, timing, operator }: Props) {
  const { state, retry } = useSnapshot(load, timing);
  const op = useOperatorData(operator);
  const snapshot = state.snapshot;
  const reservations = op.data.fabric?.reservations;
  const loads = useMemo(() => linkLoads(reservations ?? []), [reservations]);
  const highlighted = useMemo(() => (op.selectedJob ? jobLinkIds(op.selectedJob.flows) : null), [op.selectedJob]);
  const overlay: LinkOverlay = useMemo(
    () => ({ loads, hotDirections: op.data.hotDirections, highlighted }),
    [loads, op.data.hotDirections, highlighted],
  );
  const errors = Object.entries(op.data.errors).map(([source, message]) => `${source}: ${message}`);
  return (
    <div className="app">
      <header className="app__header">
        <h1>Weft</h1>
        <ConnectionStatus state={state} onRetry={retry} />
        {op.token ? <StreamStatus state={op.events} /> : <TokenPrompt onSubmit={op.signIn} />}
      </header>
      {errors.length > 0 && (
        <p className="app__errors" role="alert">
          Showing the last good data; failed: {errors.join('; ')}
        </p>
      )}
      <main className="app__main">
        {snapshot ? (
          <>
            <RolePanel nodes={snapshot.fabric.nodes} />
            <Graph fabric={snapshot.fabric} linkStates={snapshot.linkStates} overlay={overlay} />
          </>
        ) : (
          state.status === 'error' && (
            <p className="app__empty">Nothing to show: no fabric snapshot has been received from the controller.</p>
          )
        )}
        {op.token && (
          <aside className="app__side">
            <JobsPanel
              jobs={op.data.jobs}
              selectedId={op.selectedJobId}
              onSelect={op.selectJob}
              selected={op.selectedJob}
              error={op.data.errors.jobs ?? op.data.errors.job}
            />
            <HeatLegend />
          </aside>
        )}
      </main>
    </div>
  );
}
