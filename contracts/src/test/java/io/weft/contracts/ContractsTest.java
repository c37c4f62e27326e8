package io.weft.contracts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ContractsTest {

    @Test
    void readsAContractFileByItsPathUnderContracts() {
        assertThat(Contracts.read("fabric.schema.json"))
                .contains("\"$id\": \"https://weft.io/contracts/fabric.schema.json\"");
        assertThat(Contracts.exists("vectors/ev.json")).isTrue();
        assertThat(Contracts.resourceName("vectors/ev.json")).isEqualTo("io/weft/contracts/vectors/ev.json");
    }

    @Test
    void aMissingFileIsNamedInTheError() {
        assertThat(Contracts.exists("vectors/nope.json")).isFalse();
        assertThatThrownBy(() -> Contracts.read("vectors/nope.json"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("contracts/vectors/nope.json");
    }

    @Test
    void pathsMustStayInsideContracts() {
        assertThatThrownBy(() -> Contracts.read("../pom.xml")).hasMessageContaining("relativePath");
        assertThatThrownBy(() -> Contracts.read("/fabric.schema.json")).hasMessageContaining("relativePath");
        assertThatThrownBy(() -> Contracts.read("")).hasMessageContaining("relativePath");
    }

    @Test
    void buildFilesAreNotPackagedAsContracts() {
        assertThat(Contracts.exists("pom.xml")).isFalse();
        assertThat(Contracts.exists("README.md")).isTrue();
        assertThat(Contracts.exists("topics.md")).isTrue();
    }
}
