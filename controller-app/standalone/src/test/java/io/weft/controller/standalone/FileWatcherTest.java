package io.weft.controller.standalone;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileWatcherTest {

    @Test
    void reportsEachChangeOnce(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("f.json");
        Files.writeString(file, "{}");
        FileWatcher watcher = new FileWatcher(file);

        assertThat(watcher.changed()).isFalse();
        Files.writeString(file, "{\"a\":1}");
        assertThat(watcher.changed()).isTrue();
        assertThat(watcher.changed()).isFalse();
    }

    @Test
    void seesASameSizeRewriteByItsTimeAndAFileReplacedByRename(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("f.json");
        Files.writeString(file, "{\"a\":1}");
        Files.setLastModifiedTime(file, FileTime.fromMillis(1_000_000));
        FileWatcher watcher = new FileWatcher(file);

        Files.writeString(file, "{\"a\":2}");
        Files.setLastModifiedTime(file, FileTime.fromMillis(2_000_000));
        assertThat(watcher.changed()).isTrue();

        Path tmp = dir.resolve("f.json.tmp");
        Files.writeString(tmp, "{\"a\":33}");
        Files.move(tmp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        assertThat(watcher.changed()).isTrue();
    }

    @Test
    void aVanishingFileIsAChangeAndSoIsItsReturn(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("f.json");
        Files.writeString(file, "{}");
        FileWatcher watcher = new FileWatcher(file);

        Files.delete(file);
        assertThat(watcher.changed()).isTrue();
        assertThat(watcher.changed()).isFalse();
        Files.writeString(file, "{}");
        assertThat(watcher.changed()).isTrue();
    }
}
