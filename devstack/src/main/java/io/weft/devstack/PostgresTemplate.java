package io.weft.devstack;

import java.io.IOException;
import java.net.URL;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;

/**
 * A ready PostgreSQL data directory (after initdb, with the weft role and database) kept once per machine
 * and PostgreSQL build under {@code java.io.tmpdir}, copied into each new test data directory.
 *
 * <p>Every test JVM that uses the devstack needs a fresh database; initdb costs ~8 s of CPU on this kind
 * of machine, a copy of the template ~0.1 s. The template is made by one ordinary start and clean stop
 * in a private directory, then renamed into place atomically, so concurrent JVMs never see half of one.
 */
final class PostgresTemplate {
    private static final String BINARIES = "postgres-linux-x86_64.txz";

    private PostgresTemplate() {
    }

    /** Fills the empty (or absent) {@code dataDir} from the template, making the template first if needed. */
    static void copyInto(Path dataDir, Duration timeout) throws IOException {
        Path template = location();
        if (!Files.isRegularFile(template.resolve("PG_VERSION"))) {
            create(template, timeout);
        }
        copyTree(template, dataDir);
    }

    /** One template per PostgreSQL build: the binaries jar's name carries its version. */
    static Path location() {
        URL binaries = PostgresTemplate.class.getClassLoader().getResource(BINARIES);
        String build = binaries == null ? "unknown" : binaries.toString();
        int bang = build.indexOf("!/");
        String jar = bang < 0 ? build : build.substring(build.lastIndexOf('/', bang) + 1, bang);
        String key = jar.replaceAll("[^A-Za-z0-9._-]", "_");
        return Path.of(System.getProperty("java.io.tmpdir"), "weft-devstack", "pg-template-" + key);
    }

    private static void create(Path template, Duration timeout) throws IOException {
        Files.createDirectories(template.getParent());
        Path scratch = Files.createTempDirectory(template.getParent(), "pg-template-build-");
        Path data = scratch.resolve("data");
        try {
            // start() on an empty directory runs initdb and creates the weft role and database; close() is a
            // clean (fast) shutdown, after which the directory is a consistent, stopped cluster.
            EmbeddedPostgres.startWithoutTemplate(data, 0, timeout).close();
            Files.deleteIfExists(data.resolve("postmaster.pid"));
            try {
                Files.move(data, template, StandardCopyOption.ATOMIC_MOVE);
            } catch (FileAlreadyExistsException | java.nio.file.DirectoryNotEmptyException e) {
                // Another JVM finished first: its template is as good as ours.
            }
        } finally {
            deleteTree(scratch);
        }
    }

    private static void copyTree(Path from, Path to) throws IOException {
        Files.walkFileTree(from, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) throws IOException {
                Path target = to.resolve(from.relativize(dir).toString());
                if (!Files.isDirectory(target)) {
                    // COPY_ATTRIBUTES keeps mode 0700: PostgreSQL refuses a data directory others can read.
                    Files.copy(dir, target, StandardCopyOption.COPY_ATTRIBUTES);
                }
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.copy(file, to.resolve(from.relativize(file).toString()), StandardCopyOption.COPY_ATTRIBUTES);
                return FileVisitResult.CONTINUE;
            }
        });
    }

    static void deleteTree(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try {
            Files.walkFileTree(root, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                    Files.deleteIfExists(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
                    Files.deleteIfExists(dir);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException ignored) {
            // a leftover scratch directory in tmp is harmless
        }
    }
}
