package io.weft.contracts.boundary;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The checker finds planted violations, and only those: a boundary test built on it can fail. */
class ImportBoundaryTest {
    private static final ImportBoundary NO_SPRING_NO_JACKSON_MODULES = ImportBoundary
            .forbid("org.springframework.", "com.fasterxml.jackson.", "jakarta.")
            .allow("com.fasterxml.jackson.databind.");

    @Test
    void findsAPlantedImportInATree(@TempDir Path root) throws IOException {
        write(root.resolve("a/Clean.java"), "package a;\nimport java.util.List;\nclass Clean {}\n");
        write(root.resolve("a/b/Planted.java"),
                "package a.b;\n\nimport org.springframework.stereotype.Component;\n@Component class Planted {}\n");

        assertThat(NO_SPRING_NO_JACKSON_MODULES.violations(root)).singleElement().satisfies(v -> assertThat(v).endsWith(
                "Planted.java:3: org.springframework.stereotype.Component (forbidden: org.springframework.)"));
    }

    @Test
    void staticStarAndFullyQualifiedReferencesCount() {
        String src = "import static org.springframework.util.Assert.notNull;\n"
                + "import jakarta.validation.constraints.*;\n"
                + "class X { Object o = new org.springframework.web.client.RestClient(); }\n";

        assertThat(NO_SPRING_NO_JACKSON_MODULES.violations("X.java", src)).containsExactly(
                "X.java:1: org.springframework.util.Assert.notNull (forbidden: org.springframework.)",
                "X.java:2: jakarta.validation.constraints (forbidden: jakarta.)",
                "X.java:3: org.springframework.web.client.RestClient (forbidden: org.springframework.)");
    }

    @Test
    void commentsStringsAndTextBlocksDoNotCount() {
        String src = "/** Unlike org.springframework.Foo, plain. */\n"
                + "class X {\n"
                + "  // see jakarta.ws.rs\n"
                + "  String s = \"org.springframework.boot \\\" jakarta.x\";\n"
                + "  char c = '\"';\n"
                + "  String t = \"\"\"\n    org.springframework.in.a.block\n    \"\"\";\n"
                + "}\n";

        assertThat(NO_SPRING_NO_JACKSON_MODULES.violations("X.java", src)).isEmpty();
    }

    @Test
    void anAllowedPackageInsideAForbiddenOneIsAllowed() {
        String src = "import com.fasterxml.jackson.databind.ObjectMapper;\n"
                + "import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;\n";

        assertThat(NO_SPRING_NO_JACKSON_MODULES.violations("X.java", src)).containsExactly(
                "X.java:2: com.fasterxml.jackson.datatype.jsr310.JavaTimeModule (forbidden: com.fasterxml.jackson.)");
    }

    @Test
    void aPrefixMatchesWholeSegmentsOnly() {
        assertThat(ImportBoundary.forbid("io.grpc.").violations("X.java", "import io.grpcx.Y;\nimport io.grpc.Z;\n"))
                .containsExactly("X.java:2: io.grpc.Z (forbidden: io.grpc.)");
    }

    @Test
    void noFrameworksForbidsEachFrameworkNamed() {
        String src = "import org.springframework.context.ApplicationContext;\n"
                + "import org.onosproject.net.DeviceId;\n"
                + "import org.osgi.service.component.annotations.Component;\n"
                + "import org.apache.kafka.clients.consumer.Consumer;\n"
                + "import jakarta.annotation.PostConstruct;\n"
                + "import io.grpc.ManagedChannel;\n"
                + "import com.fasterxml.jackson.databind.JsonNode;\n"
                + "import java.util.List;\n"
                + "import io.weft.fabric.Fabric;\n";

        assertThat(ImportBoundary.noFrameworks().violations("X.java", src)).hasSize(7);
    }

    @Test
    void aFolderWithoutSourcesIsAnError(@TempDir Path root) {
        assertThatThrownBy(() -> NO_SPRING_NO_JACKSON_MODULES.violations(root))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no .java file");
    }

    private static void write(Path p, String text) throws IOException {
        Files.createDirectories(p.getParent());
        Files.write(p, text.getBytes(StandardCharsets.UTF_8));
    }
}
