package io.weft.lab.netns;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Whether this machine can run the network-namespace lab. Locally a missing tool skips the lab
 * tests with the reason; with {@code CI=true} it fails them, because `./weft test` installs every
 * tool the lab needs and a skipped lab test in CI would report green for a data plane never tried.
 */
final class LabHost {
    private LabHost() {
    }

    static void require() {
        String problem = NetnsLab.hostProblem();
        if (problem == null) {
            return;
        }
        if ("true".equals(System.getenv("CI"))) {
            fail("lab test cannot run under CI=true: " + problem);
        }
        assumeTrue(false, () -> "lab skipped: " + problem);
    }
}
