// Pure state of what the operator views read besides the event stream: the job list, the fabric
// state (reservations per link direction), the collector's hotspot history, and what failed last.
// A failure keeps the last good data, so the view never goes blank.
import type { HotspotEvent } from '../api/collectorApi';
import type { FabricState, JobSummary } from '../api/schedulerApi';

export interface DashboardState {
  jobs: JobSummary[] | null;
  fabric: FabricState | null;
  /** The collector's hotspot events of the last hour as last read (the live ones are in loadState). */
  hotspots: readonly HotspotEvent[];
  /** Per source ('jobs', 'fabric', 'hotspots'), the last failure message, cleared by a success. */
  errors: Partial<Record<DashboardSource, string>>;
}

export type DashboardSource = 'jobs' | 'fabric' | 'hotspots' | 'job' | 'history';

export type DashboardAction =
  | { type: 'jobs'; jobs: JobSummary[] }
  | { type: 'fabric'; fabric: FabricState }
  | { type: 'hotspots'; events: readonly HotspotEvent[] }
  | { type: 'failed'; source: DashboardSource; error: string };

export const initialDashboardState: DashboardState = { jobs: null, fabric: null, hotspots: [], errors: {} };

function cleared(errors: DashboardState['errors'], source: DashboardSource): DashboardState['errors'] {
  if (!(source in errors)) return errors;
  return Object.fromEntries(Object.entries(errors).filter(([k]) => k !== source));
}

export function dashboardReducer(state: DashboardState, action: DashboardAction): DashboardState {
  switch (action.type) {
    case 'jobs':
      return { ...state, jobs: action.jobs, errors: cleared(state.errors, 'jobs') };
    case 'fabric': {
      // Answers can overtake each other (a slow read started before a newer one): never go back.
      const current = state.fabric?.version ?? -1;
      const next = action.fabric.version ?? -1;
      if (state.fabric && next < current) return state;
      return { ...state, fabric: action.fabric, errors: cleared(state.errors, 'fabric') };
    }
    case 'hotspots':
      return { ...state, hotspots: action.events, errors: cleared(state.errors, 'hotspots') };
    case 'failed':
      return { ...state, errors: { ...state.errors, [action.source]: action.error } };
  }
}
