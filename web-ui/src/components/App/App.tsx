import { useCallback, useMemo, useState, type ComponentType } from 'react';
import { useLinkDrain } from '../../data/useLinkDrain';
import { useLinkHistory } from '../../data/useLinkHistory';
import { useLiveLoads } from '../../data/useLiveLoads';
import { useOperatorData, type OperatorDataOptions } from '../../data/useOperatorData';
import { useSnapshot, type LoadSnapshot, type SnapshotTiming } from '../../data/useSnapshot';
import { mergeLinkStates, sameLinkStates } from '../../domain/linkStates';
import { switchDetail } from '../../domain/switchDetail';
import type { FabricSnapshot, LinkState } from '../../api/types';
import { ConnectionStatus } from '../ConnectionStatus/ConnectionStatus';
import { DrainDialog } from '../DrainDialog/DrainDialog';
import { FabricGraph, type FabricGraphProps } from '../FabricGraph/FabricGraph';
import { HeatLegend } from '../HeatLegend/HeatLegend';
import { IncidentsPanel } from '../IncidentsPanel/IncidentsPanel';
import { JobsPanel } from '../JobsPanel/JobsPanel';
import { LinkHistory } from '../LinkHistory/LinkHistory';
import { LinkPanel } from '../LinkPanel/LinkPanel';
import type { ChartProps } from '../LinkHistory/UPlotChart';
import { NodeSearch } from '../NodeSearch/NodeSearch';
import { RolePanel } from '../RolePanel/RolePanel';
import { StreamStatus } from '../StreamStatus/StreamStatus';
import { SwitchDetail } from '../SwitchDetail/SwitchDetail';
import { TokenPrompt } from '../TokenPrompt/TokenPrompt';
import { defaultViewOptions, ViewOptions, type ViewOptionsState } from '../ViewOptions/ViewOptions';
import './App.css';
import { useCollapse } from './useCollapse';
import { useLinkOverlay } from './useLinkOverlay';

interface Props {
  /** Where snapshots come from; GET /fabric unless a test says otherwise. */
  load?: LoadSnapshot;
  /** The graph renderer; tests swap it because cytoscape needs a real canvas. */
  Graph?: ComponentType<FabricGraphProps>;
  /** The link chart; tests swap it because uPlot needs a real canvas. */
  Chart?: ComponentType<ChartProps>;
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

export function App({ load, Graph = FabricGraph, Chart, timing, operator }: Props) {
  const op = useOperatorData(operator);
  const { state, retry } = useSnapshot(load, timing, op.token, op.refuse);
  const live = useLiveLoads(operator?.fetchFn, op.token, op.refuse);
  const [view, setView] = useState<ViewOptionsState>(defaultViewOptions);
  const [selectedLink, setSelectedLink] = useState<string | null>(null);
  const [selectedNode, setSelectedNode] = useState<string | null>(null);
  const history = useLinkHistory(selectedLink, {
    fetchFn: operator?.fetchFn,
    token: op.token,
    onUnauthorised: op.refuse,
  });
  const drain = useLinkDrain(op.api, op.data.jobs, op.events.jobsStamp);
  // scheduler-api's link states carry the operator's drains on top of the controller's states.
  const operatorStates = op.data.fabric?.linkStates;
  const received = state.snapshot;
  const linkStates = useSameLinkStates(
    useMemo(() => mergeLinkStates(received?.linkStates, operatorStates), [received, operatorStates]),
  );
  const snapshot: FabricSnapshot | null | undefined = useMemo(
    () => (received ? { ...received, linkStates } : received),
    [received, linkStates],
  );
  const chooseLink = useCallback((id: string | null) => {
    setSelectedLink(id);
    if (id !== null) setSelectedNode(null);
  }, []);
  const chooseNodeId = useCallback((id: string) => {
    setSelectedNode(id);
    setSelectedLink(null);
  }, []);
  const choose = useMemo(() => ({ node: chooseNodeId, link: chooseLink }), [chooseNodeId, chooseLink]);
  const { drawn, collapsed, toggle, chooseNode, pickNode, pickLink } = useCollapse(snapshot, choose);
  const { overlay, timeline } = useLinkOverlay({
    fabric: snapshot?.fabric,
    fabricState: op.data.fabric,
    live,
    polledHotspots: op.data.hotspots,
    events: op.events.recent,
    selectedJob: op.selectedJob,
    selectedLink,
    view,
    drawn,
  });
  const nodeIds = useMemo(() => snapshot?.fabric.nodes.map((n) => n.id) ?? [], [snapshot]);
  const detail = useMemo(
    () => (snapshot && selectedNode ? switchDetail(snapshot, selectedNode) : null),
    [snapshot, selectedNode],
  );

  const errors = Object.entries(op.data.errors).map(([source, message]) => `${source}: ${message}`);
  return (
    <div className="app">
      <header className="app__header">
        <h1>Weft</h1>
        <ConnectionStatus state={state} onRetry={retry} />
        <StreamStatus name="Load" state={live} />
        {op.token ? <StreamStatus state={op.events} /> : <TokenPrompt onSubmit={op.signIn} />}
      </header>
      {snapshot && (
        <div className="app__toolbar">
          <NodeSearch nodeIds={nodeIds} onFound={chooseNode} />
          <ViewOptions value={view} onChange={setView} />
          <button type="button" aria-pressed={collapsed} onClick={toggle}>
            {collapsed ? 'Expand all' : 'Collapse into groups'}
          </button>
        </div>
      )}
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
              fabric={drawn?.fabric ?? snapshot.fabric}
              linkStates={drawn?.linkStates ?? snapshot.linkStates}
              overlay={overlay}
              onSelectLink={pickLink}
              onSelectNode={pickNode}
              focusNode={selectedNode}
            />
          </>
        ) : (
          state.status === 'error' && (
            <p className="app__empty">Nothing to show: no fabric snapshot has been received from the controller.</p>
          )
        )}
        <aside className="app__side">
          {detail && (
            <SwitchDetail
              detail={detail}
              onClose={() => {
                setSelectedNode(null);
              }}
            />
          )}
          {selectedLink && (
            <LinkHistory
              linkId={selectedLink}
              series={history.series}
              error={history.error}
              Chart={Chart}
              onClose={() => {
                setSelectedLink(null);
              }}
            />
          )}
          {op.token && (
            <JobsPanel
              jobs={op.data.jobs}
              selectedId={op.selectedJobId}
              onSelect={op.selectJob}
              selected={op.selectedJob}
              error={op.data.errors.jobs ?? op.data.errors.job}
            />
          )}
          {snapshot && (
            <LinkPanel
              links={snapshot.fabric.links}
              linkStates={linkStates}
              selectedId={selectedLink}
              onSelect={chooseLink}
              drain={drain.state}
              onAsk={op.api ? drain.ask : undefined}
              onClose={drain.close}
            />
          )}
          <IncidentsPanel incidents={timeline} onSelectLink={chooseLink} />
          <HeatLegend source={view.colour} />
        </aside>
      </main>
      <DrainDialog drain={drain.state} onConfirm={drain.confirm} onCancel={drain.close} />
    </div>
  );
}
