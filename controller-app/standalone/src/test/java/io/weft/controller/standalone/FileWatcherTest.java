package io.weft.controller.standalone;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileWatcherTest {

    @Test
    void reportsEachChangeOnceAfterItSettled(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("f.json");
        Files.writeString(file, "{}");
        FileWatcher watcher = new FileWatcher(file);

        assertThat(watcher.changed()).isFalse();
        Files.writeString(file, "{\"a\":1}");
        assertThat(watcher.changed()).as("first look after the write: not settled yet").isFalse();
        assertThat(watcher.changed()).isTrue();
        assertThat(watcher.changed()).isFalse();
    }

    @Test
    void aFileStillBeingWrittenIsNotReportedUntilItStops(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("f.json");
        Files.writeString(file, "{}");
        FileWatcher watcher = new FileWatcher(file);

        Files.writeString(file, "{\"nodes\":[");
        assertThat(watcher.changed()).isFalse();
        Files.writeString(file, "{\"nodes\":[1,2");
        assertThat(watcher.changed()).isFalse();
        Files.writeString(file, "{\"nodes\":[1,2,3]}");
        assertThat(watcher.changed()).isFalse();
        assertThat(watcher.changed()).isTrue();
    }

    @Test
    void seesASameSizeRewriteByItsTimeAndAFileReplacedByRename(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("f.json");
        Files.writeString(file, "{\"a\":1}");
        Files.setLastModifiedTime(file, FileTime.fromMillis(1_000_000));
        FileWatcher watcher = new FileWatcher(file);

        Files.writeString(file, "{\"a\":2}");
        Files.setLastModifiedTime(file, FileTime.fromMillis(2_000_000));
        watcher.changed();
        assertThat(watcher.changed()).isTrue();

        Path tmp = dir.resolve("f.json.tmp");
        Files.writeString(tmp, "{\"a\":33}");
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
        watcher.changed();
        assertThat(watcher.changed()).isTrue();
    }

    @Test
    void aVanishingFileIsAChangeAndSoIsItsReturn(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("f.json");
        Files.writeString(file, "{}");
        FileWatcher watcher = new FileWatcher(file);

        Files.delete(file);
        watcher.changed();
        assertThat(watcher.changed()).isTrue();
        assertThat(watcher.changed()).isFalse();
        Files.writeString(file, "{}");
        watcher.changed();
        assertThat(watcher.changed()).isTrue();
    }
}
