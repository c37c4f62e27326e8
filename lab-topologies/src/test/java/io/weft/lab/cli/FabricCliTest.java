package io.weft.lab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import io.weft.fabric.FabricJson;
import io.weft.lab.fabric.FabricGenerators;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class FabricCliTest {
    @TempDir
    Path dir;

    private String out;
    private String err;

    private int run(String... args) {
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        ByteArrayOutputStream e = new ByteArrayOutputStream();
        int rc = FabricCli.run(args, new PrintStream(o, true, StandardCharsets.UTF_8),
                new PrintStream(e, true, StandardCharsets.UTF_8));
        out = o.toString(StandardCharsets.UTF_8);
        err = e.toString(StandardCharsets.UTF_8);
        return rc;
    }

    private static final String GOOD = "{\"schemaVersion\":1,\"id\":\"t\",\"nodes\":["
            + "{\"id\":\"leaf1\",\"role\":\"leaf\",\"srv6NodeId\":1},{\"id\":\"leaf2\",\"role\":\"leaf\"},"
            + "{\"id\":\"spine1\",\"role\":\"spine\"},{\"id\":\"h1\",\"role\":\"nic\"}],\"links\":["
            + "{\"id\":\"l1\",\"a\":{\"node\":\"leaf1\",\"port\":\"eth1\"},\"b\":{\"node\":\"spine1\",\"port\":"
            + "\"eth1\"},"
            + "\"capacityGbps\":400},"
            + "{\"id\":\"l2\",\"a\":{\"node\":\"leaf2\",\"port\":\"eth1\"},\"b\":{\"node\":\"spine1\",\"port\":"
            + "\"eth2\"},"
            + "\"capacityGbps\":400},"
            + "{\"id\":\"h1-up\",\"a\":{\"node\":\"h1\",\"port\":\"eth1\"},\"b\":{\"node\":\"leaf1\",\"port\":"
            + "\"eth2\"},"
            + "\"capacityGbps\":100}]}";

    private Path file(String name, String text) throws Exception {
        Path p = dir.resolve(name);
        Files.writeString(p, text);
        return p;
    }

    @Test
    void validatesAGoodFile() throws Exception {
        assertThat(run("validate", file("good.json", GOOD).toString())).isZero();
        assertThat(out).isEqualTo("ok: t: 4 nodes (2 leaves, 1 spine, 1 nic), 3 links\n");
        assertThat(err).isEmpty();
    }

    /** Each bad file: exit 2, nothing on stdout, exactly one precise line on stderr, no trace. */
    @SuppressWarnings("checkstyle:LineLength") // one case a row: the table reads as one
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
        not JSON              | "id":"t",|"id":"t",,                            | not valid JSON at line 1, column
        unknown field         | "capacityGbps":400}|"capacityGbps":400,"mtu":9000} | $.links[0].mtu: unknown field
        capacity not a number | "capacityGbps":100}|"capacityGbps":"fast"}      | $.links[2].capacityGbps: must be a number (Gbit/s)
        unknown role          | "role":"spine"|"role":"core"                     | $.nodes[2].role: unknown role "core" (expected nic, leaf, spine, superspine or router)
        schema version        | "schemaVersion":1|"schemaVersion":2              | $.schemaVersion: 2 is not supported (expected 1)
        unknown node in link  | "node":"spine1","port":"eth2"|"node":"spine9","port":"eth2" | link l2: unknown node "spine9" (end b)
        duplicate node id     | {"id":"h1","role":"nic"}|{"id":"h1","role":"nic"},{"id":"h1","role":"nic"} | node h1: duplicate id (also $.nodes[3])
        duplicate link id     | "id":"l2"|"id":"l1"                              | link l1: duplicate id (also $.links[0])
        capacity zero         | "capacityGbps":100}|"capacityGbps":0}            | link h1-up: capacityGbps must be > 0 (got 0)
        block not a /32       | "id":"t",|"id":"t","srv6":{"block":"fcbb:bb00::/48"}, | srv6.block "fcbb:bb00::/48" is not a /32
        srv6NodeId collision  | {"id":"leaf2","role":"leaf"}|{"id":"leaf2","role":"leaf","srv6NodeId":1} | srv6NodeId 1 used by both leaf1 and leaf2
        srv6NodeId too big    | "srv6NodeId":1}|"srv6NodeId":70000}              | leaf leaf1: srv6NodeId must be in 1..57343 (0x0001-0xDFFF; got 70000)
        self loop             | "node":"spine1","port":"eth2"|"node":"leaf2","port":"eth2" | link l2: both ends on node leaf2
        bad address           | {"id":"h1","role":"nic"}|{"id":"h1","role":"nic","address":"2001:db8::g"} | nic h1: address "2001:db8::g" is not a valid IPv6 address
        duplicate port        | "node":"leaf1","port":"eth2"|"node":"leaf1","port":"eth1" | node leaf1: port eth1 used by two links (l1, h1-up)
        bad tenant            | "id":"t",|"id":"t","tenants":["a","a"],          | tenant "a": listed twice
        missing links         | ,"links":[|,"linkz":[                            | $.linkz: unknown field
        """)
    void rejectsABadFileWithOnePreciseLine(String kind, String from, String to, String message) throws Exception {
        String text = GOOD.replace(from.trim(), to.trim());
        assertThat(text).as("fixture edit applies").isNotEqualTo(GOOD);
        int rc = run("validate", file("bad.json", text).toString());
        assertThat(rc).isEqualTo(2);
        assertThat(out).isEmpty();
        assertThat(err.lines()).hasSize(1);
        assertThat(err.trim()).startsWith(message.trim());
        assertThat(err).doesNotContain("Exception").doesNotContain("\tat ");
    }

    @Test
    void nicOnTwoLeavesIsOneLine() throws Exception {
        String text = GOOD.replace("\"capacityGbps\":100}]}", "\"capacityGbps\":100},"
                + "{\"id\":\"h1-up2\",\"a\":{\"node\":\"h1\",\"port\":\"eth2\"},\"b\":{\"node\":\"leaf2\",\"port\":"
                + "\"eth2\"},"
                + "\"capacityGbps\":100}]}");
        assertThat(run("validate", file("bad.json", text).toString())).isEqualTo(2);
        assertThat(err).isEqualTo("nic h1: attached to two leaves in plane 0 (leaf1, leaf2)\n");
    }

    @Test
    void missingAndEmptyFiles() throws Exception {
        assertThat(run("validate", dir.resolve("none.json").toString())).isEqualTo(2);
        assertThat(err).isEqualTo(dir.resolve("none.json") + ": no such file\n");
        assertThat(run("validate", file("empty.json", "").toString())).isEqualTo(2);
        assertThat(err.lines()).hasSize(1);
        assertThat(run("validate", file("array.json", "[]").toString())).isEqualTo(2);
        assertThat(err).isEqualTo("$: must be an object\n");
    }

    @Test
    void generateWritesTheGeneratorsJson() throws Exception {
        assertThat(run("generate", "leaf-spine", "--leaves", "3", "--nics-per-leaf=2")).isZero();
        assertThat(out).isEqualTo(FabricJson.write(FabricGenerators.generate("leaf-spine",
                Map.of("leaves", "3", "nicsPerLeaf", "2"))));
        Path o = dir.resolve("f.json");
        assertThat(run("generate", "slimfly", "--q", "3", "-o", o.toString())).isZero();
        assertThat(out).isEmpty();
        assertThat(run("validate", o.toString())).isZero();
        assertThat(out).isEqualTo("ok: sf-q3: 72 nodes (18 routers, 54 nics), 99 links\n");
    }

    @Test
    void badGenerateArgumentsAreOneLineAndExit2() {
        assertThat(run("generate", "slimfly", "--q", "6")).isEqualTo(2);
        assertThat(err).isEqualTo("q: must be a prime power (got 6 = 2^1 x 3)\n");
        assertThat(run("generate", "torus")).isEqualTo(2);
        assertThat(err).startsWith("unknown family \"torus\"");
        assertThat(run("generate", "leaf-spine", "--leaves")).isEqualTo(2);
        assertThat(err).isEqualTo("--leaves: needs a value\n");
        assertThat(run("generate", "leaf-spine", "--leaves", "2", "--leaves", "3")).isEqualTo(2);
        assertThat(err).isEqualTo("--leaves: given twice\n");
        assertThat(run("generate")).isEqualTo(2);
        assertThat(err).contains("family").contains("usage: fabric generate");
        assertThat(run("generate", "leaf-spine", "stray")).isEqualTo(2);
        assertThat(err).startsWith("unexpected argument \"stray\"");
        assertThat(run("validate", "f.json", "--strict")).isEqualTo(2);
        assertThat(err.lines()).singleElement().asString().contains("'--strict'");
        assertThat(run("stats")).isEqualTo(2);
        assertThat(err).contains("file").contains("usage: fabric stats");
        assertThat(run("frobnicate")).isEqualTo(2);
        assertThat(err).startsWith("unknown command \"frobnicate\"");
    }

    @Test
    void clabWritesTopologyAndRejectsBadFiles() throws Exception {
        Path f = file("good.json", GOOD);
        assertThat(run("clab", f.toString())).isZero();
        assertThat(out).startsWith("# containerlab topology for Weft fabric t (custom)")
                .contains("name: t\n").contains("- endpoints: [\"h1:eth1\", \"leaf1:eth2\"]");
        assertThat(run("clab", file("bad.json", GOOD.replace("\"id\":\"l2\"", "\"id\":\"l1\"")).toString()))
                .isEqualTo(2);
        assertThat(err).isEqualTo("link l1: duplicate id (also $.links[0])\n");
        assertThat(run("clab", file("slash.json", GOOD.replace("\"port\":\"eth2\"}", "\"port\":\"et-0/0/2\"}"))
                .toString())).isEqualTo(2);
        assertThat(err).startsWith("link l2: port \"et-0/0/2\" on spine1 is not a Linux interface name");
    }

    @Test
    void statsDescribeTheShape() throws Exception {
        Path f = dir.resolve("ft.json");
        assertThat(run("generate", "fat-tree", "--k", "4", "-o", f.toString())).isZero();
        assertThat(run("stats", f.toString())).isZero();
        assertThat(out).contains("nodes     36: 8 leaves, 8 spines, 4 superspines, 16 nics")
                .contains("radix     4..4").contains("diameter  4 switch-to-switch hops");
    }

    @Test
    void helpGoesToStdoutWithExit0() {
        assertThat(run("--help")).isZero();
        assertThat(out).contains("usage: ./weft fabric generate");
        assertThat(run()).isEqualTo(2);
        assertThat(err).contains("usage:");
    }
}
