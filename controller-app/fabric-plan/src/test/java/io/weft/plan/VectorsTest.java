package io.weft.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.weft.contracts.Contracts;
import io.weft.plan.ev.Ev;
import io.weft.plan.srv6.Usid;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/** Every case of the shared uSID and EV vectors (contracts/vectors/), as all languages run them. */
class VectorsTest {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private static JsonNode vectors(String file) throws Exception {
        JsonNode root = MAPPER.readTree(Contracts.read("vectors/" + file));
        assertThat(root.get("version").asInt()).as(file + " version").isEqualTo(1);
        return root;
    }

    @TestFactory
    Stream<DynamicTest> usidCarriers() throws Exception {
        JsonNode cases = vectors("usid-carriers.json").get("cases");
        assertThat(cases.size()).isGreaterThan(10);
        List<DynamicTest> tests = new ArrayList<>();
        for (JsonNode c : cases) {
            tests.add(DynamicTest.dynamicTest(c.get("name").asText(), () -> {
                int[] usids = MAPPER.convertValue(c.get("usids"), int[].class);
                String block = c.get("block").asText();
                if (c.has("error")) {
                    assertThatThrownBy(() -> Usid.carriers(block, usids))
                            .isInstanceOfSatisfying(EncodingException.class,
                                    e -> assertThat(e.code()).isEqualTo(c.get("error").asText()));
                    return;
                }
                List<String> expected = MAPPER.convertValue(c.get("carriers"),
                        MAPPER.getTypeFactory().constructCollectionType(List.class, String.class));
                assertThat(Usid.carriers(block, usids)).containsExactlyElementsOf(expected);
                assertThat(Usid.parse(block, expected)).containsExactly(usids);
            }));
        }
        return tests.stream();
    }

    @TestFactory
    Stream<DynamicTest> evEncode() throws Exception {
        JsonNode root = vectors("ev.json");
        List<DynamicTest> tests = new ArrayList<>();
        for (JsonNode c : root.get("encode")) {
            int n1 = c.get("n1").asInt();
            int i1 = c.get("i1").asInt();
            int n2 = c.get("n2").asInt();
            int i2 = c.get("i2").asInt();
            tests.add(DynamicTest.dynamicTest("encode: " + c.get("name").asText(), () -> {
                if (c.has("error")) {
                    assertThatThrownBy(() -> Ev.encode(n1, i1, n2, i2))
                            .isInstanceOfSatisfying(EncodingException.class,
                                    e -> assertThat(e.code()).isEqualTo(c.get("error").asText()));
                    return;
                }
                int ev = Ev.encode(n1, i1, n2, i2);
                assertThat(ev).isEqualTo(c.get("ev").asInt());
                assertThat(Ev.ev1(ev)).isEqualTo(c.get("ev1").asInt());
                assertThat(Ev.ev2(ev)).isEqualTo(c.get("ev2").asInt());
                // The switches' view must land on the asked members.
                assertThat(Ev.index(Ev.ev1(ev), n1)).isEqualTo(i1);
                assertThat(Ev.index(Ev.ev2(ev), n2)).isEqualTo(i2);
            }));
        }
        for (JsonNode c : root.get("decode")) {
            int ev = c.get("ev").asInt();
            tests.add(DynamicTest.dynamicTest("decode: " + ev, () -> {
                assertThat(Ev.index(Ev.ev1(ev), c.get("n1").asInt())).isEqualTo(c.get("i1").asInt());
                assertThat(Ev.index(Ev.ev2(ev), c.get("n2").asInt())).isEqualTo(c.get("i2").asInt());
            }));
        }
        return tests.stream();
    }
}
