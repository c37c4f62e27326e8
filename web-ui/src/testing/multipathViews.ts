// A job's multipath summary after a re-spread, with scheduler-api's FabricRespreadTest figures: two
// jobs on a 3x3 leaf-spine whose optimum is 4/3, where 64 sixteenths on three uplinks put 22 on one,
// so no routing in sixteenths beats 1.375.
import type { MultipathView } from '../api/schedulerApi';

export const respreadInSixteenths: MultipathView = {
  maxPaths: 2,
  granularity: 16,
  maxPathsPerFlow: 2,
  singlePathMaxLoad: 1.5,
  maxLoad: 1.375,
  splittableOptimum: 4 / 3,
  lowerBound: 4 / 3,
  granularBound: 1.375,
  gapBound: 0.03125,
};
