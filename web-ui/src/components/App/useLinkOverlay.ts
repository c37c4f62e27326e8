// What the graph and the incidents timeline show, derived from the live data: measured or reserved
// loads, hot directions (history and stream merged), the selected job's links, all mapped onto the
// collapsed view when there is one.
import { useMemo } from 'react';
import type { HotspotEvent } from '../../api/collectorApi';
import type { Fabric } from '../../api/types';
import type { FabricState, JobView } from '../../api/schedulerApi';
import type { FabricEvent } from '../../data/eventsState';
import type { LoadState } from '../../data/loadState';
import { collapseDirections, collapseLinkIds, collapseLoads, type CollapsedView } from '../../domain/collapse';
import { linkLoads } from '../../domain/heat';
import { hotDirections, mergeHotspots } from '../../domain/hotspots';
import { incidents } from '../../domain/incidents';
import { jobLinkIds } from '../../domain/jobPaths';
import { measuredLoads } from '../../domain/measured';
import type { LinkOverlay } from '../FabricGraph/cytoscapeModel';
import type { ViewOptionsState } from '../ViewOptions/ViewOptions';

interface Inputs {
  fabric: Fabric | undefined;
  fabricState: FabricState | null;
  live: LoadState;
  polledHotspots: readonly HotspotEvent[];
  events: readonly FabricEvent[];
  selectedJob: JobView | null;
  selectedLink: string | null;
  view: ViewOptionsState;
  drawn: CollapsedView | null;
}

export function useLinkOverlay(i: Inputs) {
  const { fabric, fabricState, live, polledHotspots, events, selectedJob, selectedLink, view, drawn } = i;
  const reservations = fabricState?.reservations;
  const reserved = useMemo(() => linkLoads(reservations ?? []), [reservations]);
  const links = fabric?.links;
  const measured = useMemo(() => measuredLoads(links ?? [], live.loads, reserved), [links, live.loads, reserved]);
  const hotspots = useMemo(() => mergeHotspots(polledHotspots, live.hotspots), [polledHotspots, live.hotspots]);
  const hot = useMemo(() => hotDirections(hotspots), [hotspots]);
  const timeline = useMemo(() => incidents(hotspots, events), [hotspots, events]);
  const highlighted = useMemo(() => (selectedJob ? jobLinkIds(selectedJob.flows) : null), [selectedJob]);
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
  return { overlay, timeline };
}
