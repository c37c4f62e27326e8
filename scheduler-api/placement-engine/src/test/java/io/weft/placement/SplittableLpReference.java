package io.weft.placement;

import java.util.List;

import com.google.ortools.Loader;
import com.google.ortools.linearsolver.MPConstraint;
import com.google.ortools.linearsolver.MPObjective;
import com.google.ortools.linearsolver.MPSolver;
import com.google.ortools.linearsolver.MPVariable;

/**
 * The reference the multipath solver is tested against: the min-max-utilisation splittable flow
 * with every candidate path of every flow listed up front ({@link Candidates#enumerate}), one
 * commodity per flow and NIC arcs as ordinary rows. No aggregation, no pricing: a different
 * formulation of the same optimum, small instances only.
 */
final class SplittableLpReference {
    private SplittableLpReference() {
    }

    static double optimum(DenseFabric ix, Job job) {
        Loader.loadNativeLibraries();
        Candidates c = new Candidates(ix);
        MPSolver lp = MPSolver.createSolver("GLOP");
        try {
            MPVariable lambda = lp.makeNumVar(0, MPSolver.infinity(), "lambda");
            MPConstraint[] rows = new MPConstraint[ix.arcCount()];
            for (Flow f : job.flows()) {
                List<int[]> paths = c.enumerate(ix.node(f.srcNic()), ix.node(f.dstNic()), true, 100_000);
                if (paths.isEmpty()) {
                    continue;
                }
                MPConstraint sum = lp.makeConstraint(f.demandGbps(), f.demandGbps());
                for (int[] p : paths) {
                    MPVariable x = lp.makeNumVar(0, MPSolver.infinity(), "");
                    sum.setCoefficient(x, 1);
                    for (int a : p) {
                        if (rows[a] == null) {
                            rows[a] = lp.makeConstraint(-MPSolver.infinity(), 0);
                            rows[a].setCoefficient(lambda, -ix.capacityGbps(a));
                        }
                        rows[a].setCoefficient(x, rows[a].getCoefficient(x) + 1);
                    }
                }
            }
            MPObjective obj = lp.objective();
            obj.setCoefficient(lambda, 1);
            obj.setMinimization();
            if (lp.solve() != MPSolver.ResultStatus.OPTIMAL) {
                throw new IllegalStateException("reference LP not optimal");
            }
            return lambda.solutionValue();
        } finally {
            lp.delete();
        }
    }
}
