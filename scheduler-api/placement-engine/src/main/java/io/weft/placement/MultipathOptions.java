package io.weft.placement;

/**
 * What a job allows its flows to spread over.
 *
 * @param maxPaths most paths per flow (QP slices or EV entries the NIC keeps for one peer); 1 means
 *     one path only, which is the integral placement
 * @param granularity weights are multiples of 1/granularity (what the NIC or the ECMP group can
 *     split by, e.g. 8 or 16); a flow uses at most min(maxPaths, granularity) paths
 * @param timeBudgetMs wall time the solver may spend before it falls back to the integral placement
 * @param targetGap the solver may stop once its answer is proven within this fraction of the
 *     splittable optimum (0.05: within 5 %); 0 asks for the LP optimum itself (column generation,
 *     seconds to minutes on thousands of commodities)
 */
public record MultipathOptions(int maxPaths, int granularity, long timeBudgetMs, double targetGap) {
    /** The target gap of the three-argument form. */
    public static final double DEFAULT_TARGET_GAP = 0.05;
    public static final MultipathOptions DEFAULTS = new MultipathOptions(8, 16, 1_000);

    public MultipathOptions(int maxPaths, int granularity, long timeBudgetMs) {
        this(maxPaths, granularity, timeBudgetMs, DEFAULT_TARGET_GAP);
    }

    public MultipathOptions {
        if (maxPaths < 1 || maxPaths > 32) {
            throw new IllegalArgumentException("maxPaths: must be 1..32");
        }
        if (granularity < 1 || granularity > 256) {
            throw new IllegalArgumentException("granularity: must be 1..256");
        }
        if (timeBudgetMs < 1) {
            throw new IllegalArgumentException("timeBudgetMs: must be >= 1");
        }
        if (!(targetGap >= 0 && targetGap < 1)) {
            throw new IllegalArgumentException("targetGap: must be in [0, 1)");
        }
    }

    /** The same options asking for the LP optimum (column generation to the end, within the budget). */
    public MultipathOptions exact() {
        return new MultipathOptions(maxPaths, granularity, timeBudgetMs, 0);
    }

    /** Paths a flow can really use: each used path carries at least one weight unit. */
    public int pathLimit() {
        return Math.min(maxPaths, granularity);
    }
}
