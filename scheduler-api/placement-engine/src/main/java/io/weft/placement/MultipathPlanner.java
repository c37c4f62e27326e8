package io.weft.placement;

/** Places a job's flows on several weighted paths each (see {@link ColumnGenerationMultipath}). */
public interface MultipathPlanner {
    /**
     * @throws PlacementException bad job, as {@link PlacementEngine#add} rejects it
     */
    MultipathResult place(Job job, MultipathOptions options) throws PlacementException;
}
