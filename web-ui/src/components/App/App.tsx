import { useMemo, useState, type ComponentType } from 'react';
import { useLinkDrain } from '../../data/useLinkDrain';
import { useOperatorData, type OperatorDataOptions } from '../../data/useOperatorData';
import { useSnapshot, type LoadSnapshot, type SnapshotTiming } from '../../data/useSnapshot';
import { linkLoads } from '../../domain/heat';
import { mergeLinkStates, sameLinkStates } from '../../domain/linkStates';
import { jobLinkIds } from '../../domain/jobPaths';
import { ConnectionStatus } from '../ConnectionStatus/ConnectionStatus';
import { DrainDialog } from '../DrainDialog/DrainDialog';
import { FabricGraph, type FabricGraphProps } from '../FabricGraph/FabricGraph';
import type { LinkOverlay } from '../FabricGraph/cytoscapeModel';
import type { LinkState } from '../../api/types';
import { HeatLegend } from '../HeatLegend/HeatLegend';
import { JobsPanel } from '../JobsPanel/JobsPanel';
import { LinkPanel } from '../LinkPanel/LinkPanel';
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

/**
 * Keeps the previous object while every link's state is the same, so the graph (laid out from
 * them) is not rebuilt on each fabric read: a reservation change must not reset the zoom.
 */
function useSameLinkStates(next: Record<string, LinkState>): Record<string, LinkState> {
  const [kept, setKept] = useState(next);
  if (kept === next || sameLinkStates(kept, next)) return kept;
  setKept(next);
  return next;
}

export function App({ load, Graph = FabricGraph, timing, operator }: Props) {
  const { state, retry } = useSnapshot(load, timing);
  const op = useOperatorData(operator);
  const snapshot = state.snapshot;
  const [selectedLinkId, setSelectedLinkId] = useState<string | null>(null);
  const drain = useLinkDrain(op.api, op.data.jobs, op.events.jobsStamp);
  // scheduler-api's link states carry the operator's drains on top of the controller's states.
  const operatorStates = op.data.fabric?.linkStates;
  const linkStates = useSameLinkStates(
    useMemo(() => mergeLinkStates(snapshot?.linkStates, operatorStates), [snapshot, operatorStates]),
  );
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
            <Graph
              fabric={snapshot.fabric}
              linkStates={linkStates}
              overlay={overlay}
              selectedLinkId={selectedLinkId}
              onSelectLink={setSelectedLinkId}
            />
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
            {snapshot && (
              <LinkPanel
                links={snapshot.fabric.links}
                linkStates={linkStates}
                selectedId={selectedLinkId}
                onSelect={setSelectedLinkId}
                drain={drain.state}
                onAsk={op.api ? drain.ask : undefined}
                onClose={drain.close}
              />
            )}
            <HeatLegend />
          </aside>
        )}
      </main>
      <DrainDialog drain={drain.state} onConfirm={drain.confirm} onCancel={drain.close} />
    </div>
  );
}
