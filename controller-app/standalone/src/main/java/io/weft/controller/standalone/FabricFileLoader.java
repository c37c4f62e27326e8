package io.weft.controller.standalone;

import java.nio.file.Path;
import java.util.List;

import io.weft.fabric.Fabric;
import io.weft.fabric.FabricFormatException;
import io.weft.fabric.FabricJson;
import io.weft.fabric.FabricValidator;
import io.weft.plan.FabricPlan;
import io.weft.plan.PlanException;
import io.weft.plan.Planner;

/** Fabric file to plan: read strictly, validate structurally, plan against the previous plan. */
final class FabricFileLoader {
    /** At most this many validation problems go into the one-line error; the count says how many more. */
    static final int MAX_PROBLEMS_SHOWN = 5;

    private FabricFileLoader() {
    }

    static Fabric read(Path file) throws FabricFileException {
        Fabric fabric;
        try {
            fabric = FabricJson.read(file);
        } catch (FabricFormatException e) {
            throw new FabricFileException(prefixed(file, e.getMessage()));
        }
        List<String> problems = FabricValidator.validate(fabric);
        if (!problems.isEmpty()) {
            List<String> shown = problems.subList(0, Math.min(MAX_PROBLEMS_SHOWN, problems.size()));
            String more = problems.size() > shown.size() ? " (and " + (problems.size() - shown.size()) + " more)" : "";
            throw new FabricFileException(file + ": " + String.join("; ", shown) + more);
        }
        return fabric;
    }

    /** Plans {@code fabric}; {@code previous} (may be null) keeps surviving ids and SIDs where they were. */
    static FabricPlan plan(Path file, Fabric fabric, FabricPlan previous) throws FabricFileException {
        try {
            return Planner.plan(fabric, previous);
        } catch (PlanException e) {
            throw new FabricFileException(file + ": plan: " + e.getMessage());
        } catch (RuntimeException e) {
            // A planner bug must not take the controller down; the last good plan keeps being served.
            throw new FabricFileException(file + ": plan failed: " + e);
        }
    }

    // FabricJson.read already names the file for I/O errors; parse errors need it added.
    private static String prefixed(Path file, String message) {
        return message.startsWith(file.toString()) ? message : file + ": " + message;
    }
}
