package io.weft.scheduler.reroute;

import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.weft.scheduler.placement.PlacedFlow;
import io.weft.scheduler.placement.PlacementEngine;
import io.weft.scheduler.placement.Unplaced;

/**
 * Puts one placed flow on a given path in the engine: release its reservation, reserve the new
 * path, encode it. The engine's public API has no such operation yet (replaceFlows lets the engine
 * choose, and it keeps a flow whose reserved path is still as good, which a telemetry hotspot does
 * not change), so this reaches the engine's own reserve/unreserve/encode steps reflectively.
 * Replace with {@code PlacementEngine.pin(flowId, path)} once the engine has it; the tests of this
 * package fail loudly if the engine's internals change under it.
 *
 * <p>If the new path cannot be encoded the flow goes back on its old path and the pin fails.
 * Callers hold the engine's lock.
 */
final class EnginePin {
    private static final Field SLOTS;
    private static final Method RESERVE;
    private static final Method UNRESERVE;
    private static final Method ENCODE_CHANGED;

    static {
        try {
            SLOTS = PlacementEngine.class.getDeclaredField("slotById");
            RESERVE = PlacementEngine.class.getDeclaredMethod("reserve", int.class, int[].class);
            UNRESERVE = PlacementEngine.class.getDeclaredMethod("unreserve", int.class);
            ENCODE_CHANGED = PlacementEngine.class.getDeclaredMethod("encodeChanged", Map.class, int[].class,
                    List.class, List.class);
            SLOTS.setAccessible(true);
            RESERVE.setAccessible(true);
            UNRESERVE.setAccessible(true);
            ENCODE_CHANGED.setAccessible(true);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("PlacementEngine internals changed: " + e.getMessage(), e);
        }
    }

    /** Why a pin did not happen: the path cannot be encoded, or the flow is gone or not where expected. */
    static final class PinFailure extends Exception {
        PinFailure(String message) {
            super(message);
        }
    }

    private EnginePin() {
    }

    /**
     * Moves the flow from {@code expectedFrom} to {@code to}.
     *
     * @throws PinFailure the flow is unknown, no longer on {@code expectedFrom}, or {@code to} cannot be encoded
     */
    static PlacedFlow pin(PlacementEngine engine, String flowId, int[] expectedFrom, int[] to) throws PinFailure {
        int[] now = engine.pathArcs(flowId);
        if (now == null || !Arrays.equals(now, expectedFrom)) {
            throw new PinFailure("flow " + flowId + " moved or left since the decision");
        }
        try {
            @SuppressWarnings("unchecked")
            Integer slot = ((Map<String, Integer>) SLOTS.get(engine)).get(flowId);
            UNRESERVE.invoke(engine, slot);
            RESERVE.invoke(engine, slot, to.clone());
            Map<Integer, int[]> before = new HashMap<>();
            before.put(slot, now);
            List<String> moved = new ArrayList<>();
            List<Unplaced> unplaced = new ArrayList<>();
            ENCODE_CHANGED.invoke(engine, before, new int[0], moved, unplaced);
            if (!unplaced.isEmpty()) {
                // encodeChanged released the flow: put it back where it was, with its old encoding.
                RESERVE.invoke(engine, slot, now);
                ENCODE_CHANGED.invoke(engine, new HashMap<Integer, int[]>(), new int[] {slot}, new ArrayList<String>(),
                        new ArrayList<Unplaced>());
                throw new PinFailure("flow " + flowId + ": " + unplaced.get(0).reason());
            }
            return engine.placed(flowId);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("PlacementEngine internals not reachable: " + e.getMessage(), e);
        } catch (InvocationTargetException e) {
            throw new IllegalStateException("engine failed while pinning " + flowId + ": " + e.getCause(), e.getCause());
        }
    }
}
