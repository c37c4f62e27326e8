// A multipath job's figures and what keeps its max load above the splittable optimum: the weights'
// granularity (no routing in 1/g units does better: the granular bound) or the solver stopping short.
import type { MultipathView } from '../api/schedulerApi';

/** Loads closer than this are equal (utilisation sums carry float noise). */
const LOAD_EPSILON = 1e-9;

/** Why the max load is where it is, for a verdict's styling. */
export type MultipathCause = 'one-path' | 'optimal' | 'granularity' | 'solver' | 'unproven';

export interface MultipathFigure {
  label: string;
  value: string;
}

export interface MultipathSummary {
  figures: MultipathFigure[];
  cause: MultipathCause;
  verdict: string;
}

const load = (x: number | undefined) => (x === undefined ? '–' : x.toFixed(3));
const percent = (x: number) => `${(x * 100).toFixed(1)} %`;

/** The figures the job view shows, and one sentence saying what the gap to the optimum is made of. */
export function summarizeMultipath(mp: MultipathView): MultipathSummary {
  const g = mp.granularity;
  const proven = mp.splittableOptimum !== undefined;
  const optimum = mp.splittableOptimum ?? mp.lowerBound;
  const figures: MultipathFigure[] = [
    { label: 'max load', value: load(mp.maxLoad) },
    { label: 'one path per flow', value: load(mp.singlePathMaxLoad) },
    {
      label: 'splittable optimum',
      value: proven ? load(optimum) : optimum === undefined ? '–' : `≥ ${load(optimum)}`,
    },
    { label: `best in 1/${g} units`, value: mp.granularBound === undefined ? '–' : `≥ ${load(mp.granularBound)}` },
    { label: 'paths per flow', value: `${mp.maxPathsPerFlow ?? '–'} of ${mp.maxPaths}` },
  ];
  const max = mp.maxLoad;
  if (mp.fallback !== undefined) return { figures, cause: 'one-path', verdict: mp.fallback };
  if (max === undefined || optimum === undefined) {
    return { figures, cause: 'unproven', verdict: 'no bound was proven for this placement' };
  }
  if (max <= optimum + LOAD_EPSILON) return { figures, cause: 'optimal', verdict: 'at the splittable optimum' };
  const above = `${proven ? '' : 'at most '}${percent(max / optimum - 1)} above the splittable optimum`;
  const granular = mp.granularBound;
  if (granular === undefined) return { figures, cause: 'unproven', verdict: `${above}; no granular bound` };
  if (max <= granular + LOAD_EPSILON) {
    return { figures, cause: 'granularity', verdict: `${above}: no routing in 1/${g} units does better` };
  }
  return {
    figures,
    cause: 'solver',
    verdict: `${above}: the solver stopped short, up to ${percent(max / granular - 1)} above what 1/${g} units allow`,
  };
}
