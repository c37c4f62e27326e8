package io.weft.controller.standalone;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Objects;

/**
 * Tells whether a file changed, by modification time and size, once the change has settled.
 *
 * <p>Polling (rather than a WatchService) also sees edits made by renaming a new file over the old one,
 * and works on any mount. A change is reported only when two successive looks agree, so a file that an
 * editor or generator is still writing in place is not read half-written (which would be reported as a
 * bad edit): the price is one poll interval of delay.
 */
final class FileWatcher {
    private final Path file;
    private String accepted; // the stamp last reported (or found at construction)
    private String seen;     // the stamp of the previous look

    FileWatcher(Path file) {
        this.file = file;
        this.accepted = stamp();
        this.seen = accepted;
    }

    /** True once per settled change (including the file vanishing or coming back). */
    synchronized boolean changed() {
        String now = stamp();
        if (!Objects.equals(now, seen)) {
            seen = now; // still moving: look again next time
            return false;
        }
        if (Objects.equals(now, accepted)) {
            return false;
        }
        accepted = now;
        return true;
    }

    private String stamp() {
        try {
            BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class);
            return a.lastModifiedTime() + "/" + a.size(); // FileTime keeps the file system's full precision
        } catch (IOException e) {
            return "missing";
        }
    }
}
