package io.weft.contracts;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The nic-agent's EV port list for one (src, dst) pair: the weighted source ports it uses, each
 * repeated in proportion to its weight, as its HCCL-shaped EV file ({@code src,dst=sport0,sport1,...})
 * and {@code nic-agent ev-ports} list them. HCCL's shape has no weights, and a spraying stack uses its
 * ports evenly (or hashes onto them), so repetition is how weights reach it. The rule, shared with the
 * agent's Go code and pinned by {@code vectors/ev-ports.json}: {@link #SLOTS} slots apportioned by
 * largest remainder, then listed in smooth weighted round-robin order (heaviest port first).
 *
 * <p>Static helpers rather than a record: this jar is Java 11 bytecode (the ONOS 2.7 app embeds it).
 */
public final class EvPortList {
    /**
     * Slots per pair: a multipath job's 1/8 and 1/16 shares come out exactly, within the 32 source
     * ports HCCL takes per pair.
     */
    public static final int SLOTS = 16;

    private EvPortList() {
    }

    /**
     * Each weight's slots: {@link #SLOTS} by largest remainder (ties to the earlier weight), at least
     * one for every weight (a port in use must carry traffic), divided by their greatest common divisor.
     *
     * @param weights positive weights, e.g. each port's entries' weights in Mbit/s
     */
    public static int[] slots(long[] weights) {
        long total = 0;
        for (long w : weights) {
            if (w <= 0) {
                throw new ContractException("$.weight", "an EV port's weight must be positive (got " + w + ")");
            }
            total += w;
        }
        int[] slots = new int[weights.length];
        long[] rem = new long[weights.length];
        int given = 0;
        for (int i = 0; i < weights.length; i++) {
            slots[i] = (int) (weights[i] * SLOTS / total);
            rem[i] = weights[i] * SLOTS % total;
            given += slots[i];
        }
        for (; given < SLOTS; given++) {
            int best = 0;
            for (int i = 1; i < rem.length; i++) {
                if (rem[i] > rem[best]) {
                    best = i;
                }
            }
            slots[best]++;
            rem[best] = -1;
        }
        int g = 0;
        for (int i = 0; i < slots.length; i++) {
            slots[i] = Math.max(1, slots[i]);
            g = gcd(g, slots[i]);
        }
        for (int i = 0; i < slots.length; i++) {
            slots[i] /= g;
        }
        return slots;
    }

    /**
     * The listed ports: each port its slots times, in smooth weighted round-robin order (every step
     * adds each port's slots to its credit and takes the port with the most credit, the earlier on
     * ties, which pays the total), so every prefix of the list stays close to the weights.
     */
    public static List<Integer> spray(List<Integer> ports, int[] slots) {
        if (ports.size() != slots.length) {
            throw new IllegalArgumentException(ports.size() + " ports, " + slots.length + " slot counts");
        }
        int total = 0;
        for (int s : slots) {
            total += s;
        }
        List<Integer> out = new ArrayList<>(total);
        int[] credit = new int[slots.length];
        for (int n = 0; n < total; n++) {
            int best = 0;
            for (int i = 0; i < slots.length; i++) {
                credit[i] += slots[i];
                if (credit[i] > credit[best]) {
                    best = i;
                }
            }
            credit[best] -= total;
            out.add(ports.get(best));
        }
        return Collections.unmodifiableList(out);
    }

    /**
     * The ports listed for {@code src,dst} in the lines of an EV file, in file order, or an empty list
     * when the pair has no line.
     */
    public static List<Integer> portsOf(List<String> lines, String src, String dst) {
        String prefix = src + "," + dst + "=";
        for (String line : lines) {
            if (line.startsWith(prefix)) {
                List<Integer> ports = new ArrayList<>();
                for (String p : line.substring(prefix.length()).trim().split(",")) {
                    if (!p.isBlank()) {
                        ports.add(Integer.parseInt(p.trim()));
                    }
                }
                return Collections.unmodifiableList(ports);
            }
        }
        return List.of();
    }

    private static int gcd(int a, int b) {
        return b == 0 ? a : gcd(b, a % b);
    }
}
