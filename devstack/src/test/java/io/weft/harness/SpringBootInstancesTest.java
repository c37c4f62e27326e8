package io.weft.harness;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

class SpringBootInstancesTest {
    @Test
    void eachDoubleDashStartsTheNextInstancesArguments() {
        List<String[]> split = SpringBootInstances.split(List.of("--a=1", "--b=2", "--", "--a=3", "--", "--c"));
        assertThat(split).hasSize(3);
        assertThat(split.get(0)).containsExactly("--a=1", "--b=2");
        assertThat(split.get(1)).containsExactly("--a=3");
        assertThat(split.get(2)).containsExactly("--c");
        assertThat(SpringBootInstances.split(List.of())).hasSize(1).first().satisfies(a -> assertThat(a).isEmpty());
    }
}
