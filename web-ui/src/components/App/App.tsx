import { useCallback, useMemo, useState, type ComponentType } from 'react';
import { useLinkHistory } from '../../data/useLinkHistory';
import { useLiveLoads } from '../../data/useLiveLoads';
import { useOperatorData, type OperatorDataOptions } from '../../data/useOperatorData';
import { useSnapshot, type LoadSnapshot, type SnapshotTiming } from '../../data/useSnapshot';
import {
  collapseDirections,
  collapseFabric,
  collapseLinkIds,
  collapseLoads,
  COLLAPSE_SWITCHES,
  GROUP_PREFIX,
  groupKey,
  switchCount,
} from '../../domain/collapse';
import { linkLoads } from '../../domain/heat';
import { hotDirections, mergeHotspots } from '../../domain/hotspots';
import { incidents } from '../../domain/incidents';
import { jobLinkIds } from '../../domain/jobPaths';
import { measuredLoads } from '../../domain/measured';
import { switchDetail } from '../../domain/switchDetail';
import { ConnectionStatus } from '../ConnectionStatus/ConnectionStatus';
import { FabricGraph, type FabricGraphProps } from '../FabricGraph/FabricGraph';
import type { LinkOverlay } from '../FabricGraph/cytoscapeModel';
import { HeatLegend } from '../HeatLegend/HeatLegend';
import { IncidentsPanel } from '../IncidentsPanel/IncidentsPanel';
import { JobsPanel } from '../JobsPanel/JobsPanel';
import { LinkHistory } from '../LinkHistory/LinkHistory';
import type { ChartProps } from '../LinkHistory/UPlotChart';
import { NodeSearch } from '../NodeSearch/NodeSearch';
import { RolePanel } from '../RolePanel/RolePanel';
import { StreamStatus } from '../StreamStatus/StreamStatus';
import { SwitchDetail } from '../SwitchDetail/SwitchDetail';
import { TokenPrompt } from '../TokenPrompt/TokenPrompt';
import { defaultViewOptions, ViewOptions, type ViewOptionsState } from '../ViewOptions/ViewOptions';
import './App.css';

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

export function App({ load, Graph = FabricGraph, Chart, timing, operator }: Props) {
  const { state, retry } = useSnapshot(load, timing);
  const op = useOperatorData(operator);
  const live = useLiveLoads(operator?.fetchFn);
  const [view, setView] = useState<ViewOptionsState>(defaultViewOptions);
  const [selectedLink, setSelectedLink] = useState<string | null>(null);
  const [selectedNode, setSelectedNode] = useState<string | null>(null);
  const history = useLinkHistory(selectedLink, { fetchFn: operator?.fetchFn });
  const snapshot = state.snapshot;
  // Large fabrics start collapsed (a node per pod / group / plane); groups expand on demand.
  const [collapseChoice, setCollapseChoice] = useState<boolean | null>(null);
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const large = snapshot ? switchCount(snapshot.fabric) >= COLLAPSE_SWITCHES : false;
  const collapsed = collapseChoice ?? large;
  const drawn = useMemo(
    () => (snapshot && collapsed ? collapseFabric(snapshot.fabric, snapshot.linkStates, expanded) : null),
    [snapshot, collapsed, expanded],
  );
  const expand = useCallback((...keys: string[]) => {
    setExpanded((e) => new Set([...e, ...keys]));
  }, []);

  const reservations = op.data.fabric?.reservations;
  const reserved = useMemo(() => linkLoads(reservations ?? []), [reservations]);
  const links = snapshot?.fabric.links;
  const measured = useMemo(() => measuredLoads(links ?? [], live.loads, reserved), [links, live.loads, reserved]);
  const hotspots = useMemo(() => mergeHotspots(op.data.hotspots, live.hotspots), [op.data.hotspots, live.hotspots]);
  const hot = useMemo(() => hotDirections(hotspots), [hotspots]);
  const timeline = useMemo(() => incidents(hotspots, op.events.recent), [hotspots, op.events.recent]);
  const highlighted = useMemo(() => (op.selectedJob ? jobLinkIds(op.selectedJob.flows) : null), [op.selectedJob]);
  const overlay: LinkOverlay = useMemo(() => {
    const loads = view.colour === 'measured' ? measured : reserved;
    return {
      loads: drawn ? collapseLoads(loads, drawn) : loads,
      source: view.colour,
      show: view,
      hotDirections: drawn ? collapseDirections(hot, drawn) : hot,
      highlighted: drawn ? collapseLinkIds(highlighted, drawn) : highlighted,
      selectedLink,
    };
  }, [view, measured, reserved, hot, highlighted, selectedLink, drawn]);
  const nodeIds = useMemo(() => snapshot?.fabric.nodes.map((n) => n.id) ?? [], [snapshot]);
  const detail = useMemo(
    () => (snapshot && selectedNode ? switchDetail(snapshot, selectedNode) : null),
    [snapshot, selectedNode],
  );
  const chooseLink = useCallback((id: string) => {
    setSelectedLink(id);
    setSelectedNode(null);
  }, []);
  const chooseNode = useCallback(
    (id: string) => {
      // a node inside a collapsed group: open its group so it can be seen
      const node = snapshot?.fabric.nodes.find((n) => n.id === id);
      const key = node ? groupKey(node) : null;
      if (key !== null) expand(key);
      setSelectedNode(id);
      setSelectedLink(null);
    },
    [snapshot, expand],
  );
  // On the graph, a group node or a bundle of links expands its group(s); anything else is chosen.
  const pickNode = useCallback(
    (id: string) => {
      if (id.startsWith(GROUP_PREFIX)) expand(id.slice(GROUP_PREFIX.length));
      else chooseNode(id);
    },
    [expand, chooseNode],
  );
  const pickLink = useCallback(
    (id: string) => {
      const bundle = drawn?.fabric.links.find((l) => l.id === id && id.startsWith(GROUP_PREFIX));
      if (!bundle) {
        chooseLink(id);
        return;
      }
      const ends = [bundle.a.node, bundle.b.node].filter((n) => n.startsWith(GROUP_PREFIX));
      expand(...ends.map((n) => n.slice(GROUP_PREFIX.length)));
    },
    [drawn, expand, chooseLink],
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
          <button
            type="button"
            aria-pressed={collapsed}
            onClick={() => {
              setCollapseChoice(!collapsed);
              setExpanded(new Set());
            }}
          >
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
          <IncidentsPanel incidents={timeline} onSelectLink={chooseLink} />
          <HeatLegend source={view.colour} />
        </aside>
      </main>
    </div>
  );
}
