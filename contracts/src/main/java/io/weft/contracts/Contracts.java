package io.weft.contracts;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.charset.StandardCharsets;

/**
 * Opens contract files (schemas, examples, topic catalogue, shared vectors) from the classpath.
 *
 * <p>The files live once, under {@code contracts/} in the repository; this module's jar carries them
 * under {@code io/weft/contracts/}. Other modules' tests depend on the jar and name a file by its path
 * relative to {@code contracts/}, e.g. {@code Contracts.read("vectors/ev.json")}, so that every side is
 * tested against the same bytes.
 */
public final class Contracts {
    /** Classpath folder holding the contract files. */
    public static final String ROOT = "io/weft/contracts/";

    /** The prefix of every contract schema's {@code $id}; maps one to one onto {@link #ROOT}. */
    public static final String ID_PREFIX = "https://weft.io/contracts/";

    private Contracts() {
    }

    /** The classpath resource name of a contract file, e.g. {@code io/weft/contracts/fabric.schema.json}. */
    public static String resourceName(String relativePath) {
        if (relativePath == null || relativePath.isEmpty()) {
            throw new IllegalArgumentException("relativePath: must name a contract file, e.g. vectors/ev.json");
        }
        if (relativePath.startsWith("/") || relativePath.contains("..") || relativePath.contains("\\")) {
            throw new IllegalArgumentException("relativePath: \"" + relativePath
                    + "\" must be relative to contracts/, without '..', a leading '/' or backslashes");
        }
        return ROOT + relativePath;
    }

    /** The URL of a contract file; throws IllegalArgumentException naming the file when it is absent. */
    public static URL url(String relativePath) {
        URL url = loader().getResource(resourceName(relativePath));
        if (url == null) {
            throw new IllegalArgumentException("no contract file contracts/" + relativePath
                    + " on the classpath (is io.weft:weft-contracts a dependency?)");
        }
        return url;
    }

    /** True when the contract file exists. */
    public static boolean exists(String relativePath) {
        return loader().getResource(resourceName(relativePath)) != null;
    }

    /** Opens a contract file; the caller closes the stream. */
    public static InputStream open(String relativePath) {
        try {
            return url(relativePath).openStream();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read contracts/" + relativePath, e);
        }
    }

    /** The whole contract file as UTF-8 text. */
    public static String read(String relativePath) {
        try (InputStream in = open(relativePath)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read contracts/" + relativePath, e);
        }
    }

    private static ClassLoader loader() {
        ClassLoader cl = Thread.currentThread().getContextClassLoader();
        return cl != null ? cl : Contracts.class.getClassLoader();
    }
}
