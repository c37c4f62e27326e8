package io.weft.placement;

import java.util.Arrays;

/** A growable int array: adjacency and per-arc flow lists without boxing. */
final class IntList {
    private int[] a;
    private int n;

    IntList() {
        a = new int[8];
    }

    IntList(int capacity) {
        a = new int[Math.max(1, capacity)];
    }

    void add(int v) {
        if (n == a.length) {
            a = Arrays.copyOf(a, n * 2);
        }
        a[n++] = v;
    }

    int get(int i) {
        return a[i];
    }

    int size() {
        return n;
    }

    /** Removes the first occurrence of {@code v} (order not kept); returns false when absent. */
    boolean removeValue(int v) {
        for (int i = 0; i < n; i++) {
            if (a[i] == v) {
                a[i] = a[--n];
                return true;
            }
        }
        return false;
    }

    /** Removes and returns the last element (stack use). */
    int removeLast() {
        return a[--n];
    }

    int[] toArray() {
        return Arrays.copyOf(a, n);
    }
}
