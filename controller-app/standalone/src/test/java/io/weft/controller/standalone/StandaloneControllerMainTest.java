package io.weft.controller.standalone;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The process as ./weft controller runs it: exit code 2 and one line, never a stack trace, for bad input. */
class StandaloneControllerMainTest {
    @TempDir
    Path dir;

    @Test
    void aFileThatIsNotJsonExitsTwoWithOneLine() throws Exception {
        Path file = dir.resolve("f.json");
        TestFabrics.write(file, "{\"schemaVersion\": 1,");

        Result r = run("--fabric", file.toString(), "--http-port", "0", "--state-dir", dir.toString());

        assertThat(r.exitCode).isEqualTo(2);
        assertThat(r.stderr).singleElement().asString().startsWith("controller: " + file + ": not valid JSON at line");
    }

    @Test
    void aStructurallyInvalidFabricExitsTwoNamingTheProblem() throws Exception {
        Path file = dir.resolve("f.json");
        TestFabrics.write(file, TestFabrics.leafSpine("fab", 2, 2, 400)
                .replace("\"capacityGbps\" : 400", "\"capacityGbps\" : 0"));

        Result r = run("--fabric", file.toString(), "--http-port", "0", "--state-dir", dir.toString());

        assertThat(r.exitCode).isEqualTo(2);
        assertThat(r.stderr).singleElement().asString().startsWith("controller: " + file + ": ")
                .contains("capacityGbps");
    }

    @Test
    void aMissingFileAndABadFlagExitTwo() throws Exception {
        Result missing = run("--fabric", dir.resolve("nope.json").toString(), "--http-port", "0");
        assertThat(missing.exitCode).isEqualTo(2);
        assertThat(missing.stderr).singleElement().asString()
                .isEqualTo("controller: " + dir.resolve("nope.json") + ": no such file");

        Result flag = run("--fabric", "f.json", "--http-port", "eighty");
        assertThat(flag.exitCode).isEqualTo(2);
        assertThat(flag.stderr).singleElement().asString()
                .isEqualTo("controller: Invalid value for option '--http-port': 'eighty' is not an int (see --help)");
    }

    private record Result(int exitCode, List<String> stderr) {
    }

    private Result run(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(),
                "-Xmx128m", "-cp", System.getProperty("java.class.path"), StandaloneController.class.getName()));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD);
        pb.environment().remove("WEFT_KAFKA_BOOTSTRAP"); // HTTP only: no broker is needed to fail early
        Process p = pb.start();
        String stderr = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("the controller did not exit; stderr: " + stderr);
        }
        return new Result(p.exitValue(), stderr.lines().toList());
    }
}
