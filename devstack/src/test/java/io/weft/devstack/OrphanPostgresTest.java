package io.weft.devstack;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What EmbeddedPostgres.stopOrphan must leave alone: it may only ever stop a postgres on its own directory. */
class OrphanPostgresTest {

    @Test
    void noPidFileMeansNothingToStop(@TempDir Path dir) {
        assertThat(EmbeddedPostgres.stopOrphan(dir, Duration.ofSeconds(1))).isEqualTo(-1);
    }

    @Test
    void aPidFileNamingAnotherKindOfProcessIsLeftAlone(@TempDir Path dir) throws Exception {
        // This JVM is alive but not a postgres on dir: a reused pid must never be killed.
        Files.writeString(dir.resolve("postmaster.pid"), ProcessHandle.current().pid() + "\n" + dir + "\n");

        assertThat(EmbeddedPostgres.stopOrphan(dir, Duration.ofSeconds(1))).isEqualTo(-1);
        assertThat(ProcessHandle.current().isAlive()).isTrue();
    }

    @Test
    void aStalePidFileOfADeadProcessIsIgnored(@TempDir Path dir) throws Exception {
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        Files.writeString(dir.resolve("postmaster.pid"), gone.pid() + "\n");

        assertThat(EmbeddedPostgres.stopOrphan(dir, Duration.ofSeconds(1))).isEqualTo(-1);
    }

    @Test
    void aGarbledPidFileIsIgnored(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("postmaster.pid"), "not a pid\n");

        assertThat(EmbeddedPostgres.stopOrphan(dir, Duration.ofSeconds(1))).isEqualTo(-1);
    }

    @Test
    void aServerStillRunningOnTheDirectoryIsStopped(@TempDir Path dir) throws Exception {
        Path pgDir = dir.resolve("postgres");
        EmbeddedPostgres pg = EmbeddedPostgres.start(pgDir, 0, Duration.ofSeconds(60), true);
        try {
            // As if the devstack that started it had been killed with kill -9: nobody will close it.
            long pid = Long.parseLong(Files.readAllLines(pgDir.resolve("postmaster.pid")).get(0).trim());

            assertThat(EmbeddedPostgres.stopOrphan(pgDir, Duration.ofSeconds(30))).isEqualTo(pid);
            assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).isFalse();
        } finally {
            try {
                pg.close();
            } catch (DevstackException alreadyStopped) {
                // pg_ctl stop finds no server: expected here
            }
        }
    }
}
