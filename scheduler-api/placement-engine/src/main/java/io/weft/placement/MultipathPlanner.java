package io.weft.placement;

/** Places a job's flows on several weighted paths each (see {@link ColumnGenerationMultipath}). */
public interface MultipathPlanner {
    /**
     * @throws PlacementException bad job, as {@link PlacementEngine#add} rejects it
     */
    MultipathResult place(Job job, MultipathOptions options) throws PlacementException;

    /**
     * The same with other jobs' reservations as a fixed load: {@code backgroundGbps[a]} Gb/s already
     * on arc a (indexed as {@link DenseFabric}; e.g. {@link PlacementEngine#arcLoadsGbps()} of the
     * engine that holds them). Loads and bounds in the result include it.
     */
    MultipathResult place(Job job, MultipathOptions options, double[] backgroundGbps) throws PlacementException;
}
