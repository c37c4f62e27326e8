package io.weft.contracts.boundary;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Finds references to forbidden packages in Java sources, so a module can prove it stays free of a
 * framework: imports (static too) and fully qualified names in code both count; comments, string
 * literals and text blocks do not. A reference is forbidden when its longest matching prefix is on
 * the forbidden list rather than the allowed one, so {@code forbid("com.fasterxml.jackson.")} with
 * {@code allow("com.fasterxml.jackson.databind.")} forbids Jackson's modules but not databind.
 *
 * <p>Plain JDK code so that Java 11 and Java 17 modules can share it (from weft-contracts' test jar);
 * callers assert on {@link #violations(Path)} with their own test library.
 */
public final class ImportBoundary {
    /** A package name in code: a lowercase segment, then dotted identifiers. */
    private static final Pattern QUALIFIED = Pattern.compile("\\b[a-z][a-z0-9_]*(\\.[A-Za-z_$][A-Za-z0-9_$]*)+");

    private final List<String> forbidden;
    private final List<String> allowed;

    private ImportBoundary(List<String> forbidden, List<String> allowed) {
        this.forbidden = List.copyOf(forbidden);
        this.allowed = List.copyOf(allowed);
    }

    /**
     * What Weft's framework-free modules (fabric plan, placement engine) must not reference: the
     * frameworks and runtimes of the services that host them (Spring, Jakarta EE, ONOS, OSGi and
     * Karaf, Kafka, gRPC and protobuf) and JSON binding (Jackson 2 and 3), so that the same code runs
     * inside ONOS, in the standalone controller, in scheduler-api and in the simulator.
     */
    public static ImportBoundary noFrameworks() {
        return forbid("org.springframework.", "jakarta.", "javax.servlet.", "javax.ws.", "javax.inject.",
                "org.onosproject.", "org.onlab.", "org.osgi.", "org.apache.karaf.", "org.apache.kafka.",
                "io.grpc.", "com.google.protobuf.", "com.fasterxml.jackson.", "tools.jackson.");
    }

    /** A boundary forbidding every package starting with one of the prefixes (end each with a dot). */
    public static ImportBoundary forbid(String... prefixes) {
        return new ImportBoundary(Arrays.asList(prefixes), List.of());
    }

    /** The same boundary, with exceptions inside the forbidden prefixes. */
    public ImportBoundary allow(String... prefixes) {
        List<String> more = new ArrayList<>(allowed);
        more.addAll(Arrays.asList(prefixes));
        return new ImportBoundary(forbidden, more);
    }

    /**
     * Every forbidden reference in the .java files under {@code root}, as
     * {@code path:line: name (forbidden: prefix)}; empty when there is none.
     *
     * @throws IllegalArgumentException when {@code root} holds no .java file (a wrong path would
     *         otherwise pass vacuously)
     */
    public List<String> violations(Path root) {
        List<Path> sources;
        try (Stream<Path> s = Files.walk(root)) {
            sources = s.filter(p -> p.toString().endsWith(".java")).sorted().collect(Collectors.toList());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + root, e);
        }
        if (sources.isEmpty()) {
            throw new IllegalArgumentException("no .java file under " + root.toAbsolutePath());
        }
        List<String> found = new ArrayList<>();
        for (Path p : sources) {
            found.addAll(violations(p.toString(), read(p)));
        }
        return found;
    }

    /** Forbidden references in one source text; {@code name} prefixes each finding. */
    public List<String> violations(String name, String source) {
        String code = codeOnly(source);
        List<String> found = new ArrayList<>();
        Matcher m = QUALIFIED.matcher(code);
        while (m.find()) {
            String ref = m.group() + ".";
            String rule = longest(forbidden, ref);
            String exception = longest(allowed, ref);
            if (rule != null && (exception == null || exception.length() <= rule.length())) {
                found.add(name + ":" + lineOf(code, m.start()) + ": " + m.group() + " (forbidden: " + rule + ")");
            }
        }
        return found;
    }

    private static String longest(List<String> prefixes, String ref) {
        String best = null;
        for (String p : prefixes) {
            if (ref.startsWith(p) && (best == null || p.length() > best.length())) {
                best = p;
            }
        }
        return best;
    }

    /**
     * The source with comments, string and char literals and text blocks blanked out (newlines
     * kept, so line numbers stay right).
     */
    static String codeOnly(String s) {
        StringBuilder out = new StringBuilder(s.length());
        int i = 0;
        while (i < s.length()) {
            char c = s.charAt(i);
            if (s.startsWith("//", i)) {
                while (i < s.length() && s.charAt(i) != '\n') {
                    out.append(' ');
                    i++;
                }
            } else if (s.startsWith("/*", i)) {
                int end = s.indexOf("*/", i + 2);
                end = end < 0 ? s.length() : end + 2;
                blank(s, i, end, out);
                i = end;
            } else if (s.startsWith("\"\"\"", i)) {
                int end = s.indexOf("\"\"\"", i + 3);
                end = end < 0 ? s.length() : end + 3;
                blank(s, i, end, out);
                i = end;
            } else if (c == '"' || c == '\'') {
                int j = i + 1;
                while (j < s.length() && s.charAt(j) != c && s.charAt(j) != '\n') {
                    j += s.charAt(j) == '\\' ? 2 : 1;
                }
                int end = Math.min(j + 1, s.length());
                blank(s, i, end, out);
                i = end;
            } else {
                out.append(c);
                i++;
            }
        }
        return out.toString();
    }

    private static void blank(String s, int from, int to, StringBuilder out) {
        for (int k = from; k < to; k++) {
            out.append(s.charAt(k) == '\n' ? '\n' : ' ');
        }
    }

    private static int lineOf(String s, int offset) {
        int line = 1;
        for (int k = 0; k < offset; k++) {
            if (s.charAt(k) == '\n') {
                line++;
            }
        }
        return line;
    }

    private static String read(Path p) {
        try {
            return new String(Files.readAllBytes(p), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + p, e);
        }
    }
}
