package io.weft.controller.standalone;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

import com.fasterxml.jackson.databind.JsonNode;
import io.weft.fabric.FabricJson;

/**
 * The last snapshot of each fabric in {@code <state-dir>/controller/<fabric-id>.snapshot.json}, so that
 * without Kafka too a restarted controller continues the version sequence and keeps every allocated id.
 */
final class SnapshotStore {
    private final Path dir;

    SnapshotStore(Path stateDir) {
        this.dir = stateDir.resolve("controller");
    }

    /** The stored snapshot, or null when none was stored or the file is unreadable (then it is ignored). */
    JsonNode load(String fabricId) {
        Path file = file(fabricId);
        if (!Files.isRegularFile(file)) {
            return null;
        }
        try {
            return FabricJson.mapper().readTree(file.toFile());
        } catch (IOException e) {
            return null;
        }
    }

    /** Replaces the stored snapshot atomically: a crash leaves the old or the new one, never half of one. */
    void save(String fabricId, byte[] json) throws IOException {
        Files.createDirectories(dir);
        Path tmp = Files.createTempFile(dir, "." + fabricId, ".tmp");
        Files.write(tmp, json);
        Files.move(tmp, file(fabricId), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    Path file(String fabricId) {
        // Fabric ids are [A-Za-z0-9._-] (FabricValidator), safe as file names.
        return dir.resolve(fabricId + ".snapshot.json");
    }
}
