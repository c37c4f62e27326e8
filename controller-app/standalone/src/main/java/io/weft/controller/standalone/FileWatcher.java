package io.weft.controller.standalone;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Objects;

/**
 * Tells whether a file changed since the last look, by modification time and size. Polling (rather than
 * a WatchService) also sees edits made by renaming a new file over the old one, and works on any mount.
 */
final class FileWatcher {
    private final Path file;
    private Object stamp;

    FileWatcher(Path file) {
        this.file = file;
        this.stamp = stamp();
    }

    /** True once per change (including the file vanishing or coming back). */
    synchronized boolean changed() {
        Object now = stamp();
        if (Objects.equals(now, stamp)) {
            return false;
        }
        stamp = now;
        return true;
    }

    private Object stamp() {
        try {
            BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class);
            return a.lastModifiedTime() + "/" + a.size(); // FileTime keeps the file system's full precision
        } catch (IOException e) {
            return "missing";
        }
    }
}
