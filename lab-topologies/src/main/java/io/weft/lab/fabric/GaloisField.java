package io.weft.lab.fabric;

/**
 * The finite field GF(q), q = p^m, by tables. Elements are ints 0..q-1 read as polynomials over
 * GF(p) in base p (digit i = coefficient of x^i); for m = 1 this is plain arithmetic mod p.
 * The modulus is the first monic degree-m polynomial (in base-p order) for which the quotient ring
 * has no zero divisors, i.e. the first irreducible one; building costs O(q²) and q is small here.
 */
final class GaloisField {
    /** Upper bound on q: tables are q² ints and Slim Fly radix grows as 3q/2. */
    static final int MAX_Q = 256;

    private final int q;
    private final int[][] mul;
    private final int[][] add;
    private final int[] neg;
    private final int primitive;

    private GaloisField(int q, int[][] add, int[][] mul) {
        this.q = q;
        this.add = add;
        this.mul = mul;
        this.neg = new int[q];
        for (int x = 0; x < q; x++) {
            for (int y = 0; y < q; y++) {
                if (add[x][y] == 0) {
                    neg[x] = y;
                }
            }
        }
        this.primitive = findPrimitive();
    }

    /** GF(q); throws IllegalArgumentException when q is not a prime power in 2..MAX_Q. */
    static GaloisField of(int q) {
        if (q < 2 || q > MAX_Q) {
            throw new IllegalArgumentException("q: must be a prime power in 2.." + MAX_Q + " (got " + q + ")");
        }
        int p = smallestPrimeFactor(q);
        int m = 0;
        int rest = q;
        while (rest % p == 0) {
            rest /= p;
            m++;
        }
        if (rest != 1) {
            throw new IllegalArgumentException("q: must be a prime power (got " + q + " = " + p + "^" + m + " x "
                    + rest + ")");
        }
        int[][] add = new int[q][q];
        for (int x = 0; x < q; x++) {
            for (int y = 0; y < q; y++) {
                add[x][y] = digitwise(x, y, p, m);
            }
        }
        // Candidate moduli: x^m + c(x) for every c of degree < m, in increasing order of c.
        for (int c = 0; c < q; c++) {
            int[][] mul = multiplicationTable(p, m, c);
            if (noZeroDivisors(mul, q)) {
                return new GaloisField(q, add, mul);
            }
        }
        throw new IllegalStateException("no irreducible polynomial of degree " + m + " over GF(" + p + ")");
    }

    int size() {
        return q;
    }

    int add(int x, int y) {
        return add[x][y];
    }

    int sub(int x, int y) {
        return add[x][neg[y]];
    }

    int mul(int x, int y) {
        return mul[x][y];
    }

    int neg(int x) {
        return neg[x];
    }

    /** The smallest element (as an int) whose powers give every nonzero element. */
    int primitive() {
        return primitive;
    }

    /** ξ^e for the primitive element ξ, e >= 0. */
    int power(int e) {
        int r = 1;
        for (int i = 0; i < e; i++) {
            r = mul[r][primitive];
        }
        return r;
    }

    private int findPrimitive() {
        for (int x = 2 % q; x < q; x++) {
            if (x == 0) {
                continue;
            }
            int order = 1;
            int v = x;
            while (v != 1) {
                v = mul[v][x];
                order++;
            }
            if (order == q - 1) {
                return x;
            }
        }
        return 1; // q = 2: the only nonzero element
    }

    private static int digitwise(int x, int y, int p, int m) {
        int r = 0;
        int w = 1;
        for (int i = 0; i < m; i++) {
            r += ((x % p + y % p) % p) * w;
            x /= p;
            y /= p;
            w *= p;
        }
        return r;
    }

    private static int[][] multiplicationTable(int p, int m, int modulusLow) {
        int q = 1;
        for (int i = 0; i < m; i++) {
            q *= p;
        }
        int[] low = digits(modulusLow, p, m); // x^m = -low(x)
        int[][] t = new int[q][q];
        for (int x = 0; x < q; x++) {
            int[] a = digits(x, p, m);
            for (int y = x; y < q; y++) {
                int[] b = digits(y, p, m);
                int[] prod = new int[2 * m];
                for (int i = 0; i < m; i++) {
                    for (int j = 0; j < m; j++) {
                        prod[i + j] = (prod[i + j] + a[i] * b[j]) % p;
                    }
                }
                for (int d = 2 * m - 1; d >= m; d--) {
                    int coef = prod[d];
                    if (coef != 0) {
                        prod[d] = 0;
                        for (int i = 0; i < m; i++) {
                            prod[d - m + i] = Math.floorMod(prod[d - m + i] - coef * low[i], p);
                        }
                    }
                }
                int v = 0;
                for (int i = m - 1; i >= 0; i--) {
                    v = v * p + prod[i];
                }
                t[x][y] = v;
                t[y][x] = v;
            }
        }
        return t;
    }

    private static boolean noZeroDivisors(int[][] mul, int q) {
        for (int x = 1; x < q; x++) {
            for (int y = 1; y < q; y++) {
                if (mul[x][y] == 0) {
                    return false;
                }
            }
        }
        return true;
    }

    private static int[] digits(int v, int p, int m) {
        int[] d = new int[m];
        for (int i = 0; i < m; i++) {
            d[i] = v % p;
            v /= p;
        }
        return d;
    }

    private static int smallestPrimeFactor(int n) {
        for (int d = 2; d * d <= n; d++) {
            if (n % d == 0) {
                return d;
            }
        }
        return n;
    }
}
