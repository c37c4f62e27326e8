package io.weft.lab.netns;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Finds the lab's gNMI switch agent ({@code weft-switch}, lab-topologies/switch-agent). The
 * {@code weft.switchAgent} system property or the {@code WEFT_SWITCH_AGENT} environment variable
 * names a built binary (tools/weft.d/lab and tools/weft.d/test set it from build_switch_agent);
 * otherwise it is built from the source tree into the module's bin/ (where build_switch_agent
 * puts it) when missing or older than a source, so a plain {@code mvn test} needs only Go.
 */
final class SwitchAgentBinary {
    static final String PROPERTY = "weft.switchAgent";
    static final String ENV = "WEFT_SWITCH_AGENT";
    private static final Path MODULE = Path.of("lab-topologies", "switch-agent");

    private SwitchAgentBinary() {
    }

    /** The binary named by the property or variable, or null. */
    private static String named() {
        String p = System.getProperty(PROPERTY);
        if (p == null || p.isBlank()) {
            p = System.getenv(ENV);
        }
        return p == null || p.isBlank() ? null : p;
    }

    /** Null when {@link #locate} can work here, else why not (for {@link NetnsLab#hostProblem}). */
    static String problem() {
        String named = named();
        if (named != null) {
            return Files.isExecutable(Path.of(named)) ? null
                    : ENV + "/" + PROPERTY + ": " + named + " is not an executable file";
        }
        Path module = module();
        if (module == null) {
            return "weft-switch: no " + ENV + " and no " + MODULE + " above " + Path.of("").toAbsolutePath();
        }
        Path bin = module.resolve("bin/weft-switch");
        if (Files.isExecutable(bin) && !stale(module, bin)) {
            return null;
        }
        return goTool() != null ? null
                : "weft-switch is not built and there is no Go toolchain (apt-get install -y golang-go,"
                  + " or set " + ENV + " to a built binary)";
    }

    /** The weft-switch binary, built first when needed. */
    static Path locate() throws LabException {
        String problem = problem();
        if (problem != null) {
            throw new LabException(problem);
        }
        String named = named();
        if (named != null) {
            return Path.of(named).toAbsolutePath();
        }
        Path module = module();
        Path bin = module.resolve("bin/weft-switch");
        synchronized (SwitchAgentBinary.class) {
            if (!Files.isExecutable(bin) || stale(module, bin)) {
                build(module);
            }
        }
        return bin.toAbsolutePath();
    }

    private static void build(Path module) throws LabException {
        // Static like build_switch_agent's, so the binary is the same whichever path built it.
        ProcessBuilder pb = new ProcessBuilder(goTool(), "build", "-trimpath", "-o", "bin/", "./cmd/weft-switch")
                .directory(module.toFile()).redirectErrorStream(true);
        Map<String, String> env = pb.environment();
        env.put("CGO_ENABLED", "0");
        try {
            Process p = pb.start();
            String out = new String(p.getInputStream().readAllBytes());
            if (p.waitFor() != 0) {
                throw new LabException("go build of weft-switch in " + module + " failed: " + out.strip());
            }
        } catch (IOException e) {
            throw new LabException("go build of weft-switch: cannot run go (" + e.getMessage() + ")");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LabException("go build of weft-switch: interrupted");
        }
    }

    private static Path module() {
        for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
            if (Files.isRegularFile(d.resolve(MODULE).resolve("go.mod"))) {
                return d.resolve(MODULE);
            }
        }
        return null;
    }

    /** True when a .go, go.mod or go.sum under the module is newer than the binary. */
    private static boolean stale(Path module, Path bin) {
        try (Stream<Path> files = Files.walk(module)) {
            FileTime built = Files.getLastModifiedTime(bin);
            return files.filter(f -> !f.startsWith(module.resolve("bin")))
                    .filter(f -> {
                        String n = f.getFileName().toString();
                        return n.endsWith(".go") || n.equals("go.mod") || n.equals("go.sum");
                    })
                    .anyMatch(f -> {
                        try {
                            return Files.getLastModifiedTime(f).compareTo(built) > 0;
                        } catch (IOException e) {
                            throw new UncheckedIOException(e);
                        }
                    });
        } catch (IOException | UncheckedIOException e) {
            return true;
        }
    }

    private static String goTool() {
        String path = System.getenv("PATH");
        for (String dir : (path == null ? "" : path).split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, "go"))) {
                return Path.of(dir, "go").toString();
            }
        }
        for (String p : List.of("/usr/local/go/bin/go", "/usr/lib/go/bin/go")) {
            if (Files.isExecutable(Path.of(p))) {
                return p;
            }
        }
        return null;
    }
}
