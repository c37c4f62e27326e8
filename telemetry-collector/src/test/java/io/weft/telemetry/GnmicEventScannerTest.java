package io.weft.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.weft.contracts.Contracts;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The byte scanner answers only what the tree parser answers, and answers it identically: on every
 * shared vector, on records at the edges of JSON and of the event rules, and on many randomly
 * mutated records (where a scanner that accepted too much would turn a dead letter into samples).
 */
class GnmicEventScannerTest {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final String TAGS = "\"tags\":{\"target\":\"leaf1\",\"interface_name\":\"eth1\"}";
    private static final String OCTETS = "\"/interfaces/interface/state/counters/out-octets\"";
    private final GnmicEventParser parser = new GnmicEventParser();

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** The tree's samples, or null when the tree rejects the record. */
    private List<InterfaceSample> tree(String record) {
        try {
            return parser.parse(record);
        } catch (TelemetryFormatException e) {
            return null;
        }
    }

    private void scannerAgreesWithTree(String record) {
        List<InterfaceSample> scanned = GnmicEventScanner.tryParse(utf8(record));
        if (scanned != null) {
            assertThat(tree(record)).as("tree answer for %s", record).isNotNull().isEqualTo(scanned);
        }
    }

    @TestFactory
    Stream<DynamicTest> everyValidVectorIsScannedAsTheTreeReadsItAndNoErrorIsScanned() throws Exception {
        JsonNode vectors = MAPPER.readTree(Contracts.read("vectors/gnmic-events.json"));
        List<DynamicTest> tests = new ArrayList<>();
        for (JsonNode c : vectors.get("cases")) {
            String record = c.get("record").asText();
            tests.add(DynamicTest.dynamicTest(c.get("name").asText(), () -> {
                List<InterfaceSample> scanned = GnmicEventScanner.tryParse(utf8(record));
                if (c.has("error")) {
                    assertThat(scanned).isNull();
                } else {
                    // Every valid vector is plain ASCII without escapes: the scanner must take it.
                    assertThat(scanned).isNotNull().isEqualTo(parser.parse(record));
                }
            }));
        }
        return tests.stream();
    }

    @TestFactory
    Stream<DynamicTest> edgeRecordsAreLeftToTheTreeOrAnsweredAsItDoes() {
        List<String> records = List.of(
                "{\"timestamp\":1," + TAGS + ",\"values\":{" + OCTETS + ":\"9223372036854775807\"}}",
                "{\"timestamp\":1," + TAGS + ",\"values\":{" + OCTETS + ":\"9223372036854775808\"}}",
                "{\"timestamp\":1," + TAGS + ",\"values\":{" + OCTETS + ":9223372036854775807}}",
                "{\"timestamp\":1," + TAGS + ",\"values\":{" + OCTETS + ":18446744073709551616}}",
                "{\"timestamp\":1," + TAGS + ",\"values\":{" + OCTETS + ":18446744073709551615}}",
                "{\"timestamp\":1," + TAGS + ",\"values\":{" + OCTETS + ":\"18446744073709551616\"}}",
                "{\"timestamp\":1," + TAGS + ",\"values\":{" + OCTETS + ":\"18446744073709551609\"}}",
                "{\"timestamp\":1," + TAGS + ",\"values\":{" + OCTETS + ":\"28446744073709551615\"}}",
                "{\"timestamp\":1," + TAGS + ",\"values\":{" + OCTETS + ":\"00000000000000000000012\"}}",
                "{\"timestamp\":9223372036854775808," + TAGS + ",\"values\":{}}",
                "{\"timestamp\":\"00000000000000000001\"," + TAGS + ",\"values\":{}}",
                "{\"timestamp\":1," + TAGS + ",\"values\":{" + OCTETS + ":\"00012\"}}",
                "{\"timestamp\":1," + TAGS + ",\"values\":{" + OCTETS + ":012}}",
                "{\"timestamp\":1," + TAGS + ",\"values\":{" + OCTETS + ":0}}",
                "{\"timestamp\":1," + TAGS + ",\"values\":{" + OCTETS + ":1e3}}",
                "{\"timestamp\":1," + TAGS + ",\"values\":{" + OCTETS + ":1.0}}",
                "{\"timestamp\":1," + TAGS + ",\"values\":{" + OCTETS + ":-0}}",
                "{\"timestamp\":1," + TAGS + ",\"values\":{" + OCTETS + ":\"\"}}",
                "{\"timestamp\":1," + TAGS + ",\"values\":{" + OCTETS + ":\"1\"," + OCTETS + ":\"2\"}}",
                "{\"timestamp\":01," + TAGS + ",\"values\":{}}",
                "{\"timestamp\":\"01\"," + TAGS + ",\"values\":{}}",
                "{\"timestamp\":1,\"timestamp\":2," + TAGS + ",\"values\":{}}",
                "{\"timestamp\":1," + TAGS + ",\"values\":{},}",
                "{\"timestamp\":1," + TAGS + ",\"values\":{\"a\":[1,]}}",
                "{\"timestamp\":1," + TAGS + ",\"values\":{\"a\":[1,2.5e-3,-0.0,true,false,null,{\"b\":{}},[]]}}",
                "{\"timestamp\":1," + TAGS + ",\"values\":{\"a\":tru}}",
                "{\"timestamp\":1," + TAGS + ",\"values\":{\"a\":truex}}",
                "{\"timestamp\":1," + TAGS + ",\"values\":{\"a\":NaN}}",
                "{\"timestamp\":1," + TAGS + ",\"values\":{\"a\":.5}}",
                "{\"timestamp\":1," + TAGS + ",\"values\":{\"a\":1.}}",
                "{\"timestamp\":1," + TAGS + ",\"values\":{\"a\":1e}}",
                "{\"timestamp\":1," + TAGS + ",\"values\":{\"a\":-}}",
                "{\"timestamp\":1," + TAGS + ",\"values\":{\"a\":\"x\\\"y\"}}",
                "{\"timestamp\":1,\"tags\":{\"target\":\"le\\u0061f1\",\"interface_name\":\"eth1\"},\"values\":{}}",
                "{\"timestamp\":1,\"tags\":{\"target\":\"l\u00e9af1\",\"interface_name\":\"eth1\"},\"values\":{}}",
                "{\"timestamp\":1,\"tags\":{\"target\":\"a\",\"target\":5,\"interface_name\":\"eth1\"},\"values\":{}}",
                "{\"timestamp\":1,\"tags\":{\"target\":\"\",\"source\":\"b\",\"interface_name\":7,"
                        + "\"interface_interface-id\":\"eth2\",\"queue_name\":\"q0\"},\"values\":{}}",
                "{\"timestamp\":1," + TAGS + ",\"values\":{\"x:/a/oper-status\":\"mod:down\",\"/a/b\":{\"c\":[1,"
                        + "{\"d\":3}]}}}",
                "{\"timestamp\":1," + TAGS + ",\"values\":{\"oper-status\":5}}",
                "{\"timestamp\":1," + TAGS + ",\"values\":{\"oper-status\":\"UP\",\"a:oper-status\":\"DOWN\"}}",
                "{\"timestamp\":1," + TAGS + "," + TAGS + ",\"values\":{}}",
                "{\"timestamp\":1," + TAGS + ",\"values\":{},\"values\":{" + OCTETS + ":1}}",
                "{\"timestamp\":1," + TAGS + ",\"values\":[]}",
                "{\"timestamp\":1," + TAGS + "}",
                "{}",
                "[]",
                " [ ] ",
                "[{\"timestamp\":1," + TAGS + ",\"values\":{}}, 5]",
                "[{\"timestamp\":1," + TAGS + ",\"values\":{}}] []",
                "[{\"timestamp\":1," + TAGS + ",\"values\":{}}",
                "\t{ \"timestamp\" : 1 ,\r\n" + TAGS + " , \"values\" : { " + OCTETS + " : 7 } }\n",
                "{\"a\":" + "[".repeat(40) + "]".repeat(40) + ",\"timestamp\":1," + TAGS + ",\"values\":{}}",
                "",
                "   ",
                "42");
        List<DynamicTest> tests = new ArrayList<>();
        for (String record : records) {
            tests.add(DynamicTest.dynamicTest("[" + record + "]", () -> {
                scannerAgreesWithTree(record);
                // And the parser as a whole (scanner, then token reader, then tree) answers as the tree.
                List<InterfaceSample> whole;
                try {
                    whole = parser.parseUtf8(utf8(record));
                } catch (TelemetryFormatException e) {
                    whole = null;
                }
                assertThat(whole).isEqualTo(tree(record));
            }));
        }
        return tests.stream();
    }

    @Test
    void aTypicalRecordIsScannedAndItsNamesAreSharedStrings() {
        String e = "{\"name\":\"if\",\"timestamp\":5,\"tags\":{\"source\":\"leaf1\",\"interface_name\":\"eth1\"},"
                + "\"values\":{\"openconfig:/interfaces/interface/state/counters/out-octets\":\"7\","
                + "\"/interfaces/interface/state/counters/in-pkts\":12,"
                + "\"/interfaces/interface/state/oper-status\":\"openconfig-if:up\"}}";
        List<InterfaceSample> first = GnmicEventScanner.tryParse(utf8("[" + e + "," + e + "]"));
        List<InterfaceSample> again = GnmicEventScanner.tryParse(utf8(e));
        assertThat(first).hasSize(2);
        InterfaceSample s = first.get(0);
        assertThat(s.target()).isEqualTo("leaf1");
        assertThat(s.interfaceName()).isEqualTo("eth1");
        assertThat(s.counters()).containsOnly(java.util.Map.entry(Counter.OUT_OCTETS, 7L),
                java.util.Map.entry(Counter.IN_PKTS, 12L));
        assertThat(s.operStatus()).isEqualTo("UP");
        assertThat(again.get(0).target()).isSameAs(s.target());
        assertThat(again.get(0).interfaceName()).isSameAs(s.interfaceName());
    }

    /** Word-at-a-time string scanning: a special byte at any offset of a long key is seen. */
    @Test
    void aSpecialByteAnywhereInALongKeyLeavesTheRecordToTheNextTier() {
        String record = "{\"timestamp\":1," + TAGS + ",\"values\":{" + OCTETS + ":\"5\"}}";
        byte[] plain = utf8(record);
        assertThat(GnmicEventScanner.tryParse(plain)).isNotNull();
        int keyFrom = record.indexOf(OCTETS) + 1;
        int keyTo = keyFrom + OCTETS.length() - 2;
        for (byte special : new byte[] {0x00, 0x01, 0x1f, '\\', (byte) 0x80, (byte) 0xc3, (byte) 0xff}) {
            for (int at = keyFrom; at < keyTo; at++) {
                byte[] bad = plain.clone();
                bad[at] = special;
                assertThat(GnmicEventScanner.tryParse(bad)).as("byte %02x at %d", special, at).isNull();
            }
        }
        // A byte that is merely unusual (DEL, tilde) inside the key is plain ASCII: still scanned.
        byte[] odd = plain.clone();
        odd[keyFrom + 3] = 0x7f;
        assertThat(GnmicEventScanner.tryParse(odd)).isNotNull();
    }

    /**
     * Seeded random edits of valid records (bytes deleted, inserted, replaced, slices repeated): the
     * scanner answers only records the tree accepts, with the tree's samples.
     */
    @Test
    void mutatedRecordsNeverGetAnAnswerTheTreeWouldNotGive() throws Exception {
        List<String> bases = new ArrayList<>();
        JsonNode vectors = MAPPER.readTree(Contracts.read("vectors/gnmic-events.json"));
        for (JsonNode c : vectors.get("cases")) {
            if (!c.has("error")) {
                bases.add(c.get("record").asText());
            }
        }
        bases.add("[{\"timestamp\":1," + TAGS + ",\"values\":{" + OCTETS
                + ":\"12\",\"/a/b\":[1,-2.5E+3,{\"c\":null}]}}]");
        String alphabet = "{}[]:,\"\\ \t\n\u0001\u001f\u007f0123456789-+.eEtrufalsn/abcx";
        Random random = new Random(20261121L);
        int scanned = 0;
        int cases = 30_000;
        for (int n = 0; n < cases; n++) {
            StringBuilder r = new StringBuilder(bases.get(random.nextInt(bases.size())));
            int edits = 1 + random.nextInt(3);
            for (int k = 0; k < edits && r.length() > 0; k++) {
                int at = random.nextInt(r.length());
                switch (random.nextInt(4)) {
                    case 0 -> r.deleteCharAt(at);
                    case 1 -> r.insert(at, alphabet.charAt(random.nextInt(alphabet.length())));
                    case 2 -> r.setCharAt(at, alphabet.charAt(random.nextInt(alphabet.length())));
                    default -> {
                        int to = Math.min(r.length(), at + 1 + random.nextInt(12));
                        r.insert(at, r.substring(at, to));
                    }
                }
            }
            String record = r.toString();
            List<InterfaceSample> s = GnmicEventScanner.tryParse(utf8(record));
            if (s != null) {
                scanned++;
                assertThat(tree(record)).as("tree answer for %s", record).isNotNull().isEqualTo(s);
            }
        }
        // Many edits land in names or digits and leave a valid record: the scanner must have answered some.
        assertThat(scanned).isGreaterThan(cases / 20);
    }
}
