package io.weft.telemetry.history;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.Comparator;
import java.util.List;

import io.weft.contracts.LinkLoad;
import org.junit.jupiter.api.Test;

class RollupBufferTest {
    private static void add(RollupBuffer b, String toNode, long ns, double rate, Double drop,
            boolean hot) throws Exception {
        b.add(LinkLoad.fromJson("{\"schemaVersion\":1,\"fabricId\":\"f\",\"linkId\":\"l1\",\"toNode\":\"" + toNode
                + "\",\"timestampNs\":\"" + ns + "\",\"rateGbps\":" + rate + ",\"capacityGbps\":400,\"utilisation\":"
                + rate / 400 + ",\"dropRate\":" + drop
                + ",\"ecnFraction\":null,\"operStatus\":\"UP\",\"hot\":" + hot + "}"));
    }

    @Test
    void foldsSamplesPerDirectionAndSecond() throws Exception {
        RollupBuffer b = new RollupBuffer();
        add(b, "s1", 10_100_000_000L, 100, 0.01, false);
        add(b, "s1", 10_600_000_000L, 300, null, true);
        add(b, "s1", 11_000_000_000L, 50, null, false);   // the next second
        add(b, "l1", 10_200_000_000L, 10, null, false);   // the other direction
        List<RollupBuffer.Rollup> rows = b.drain();
        assertThat(b.size()).isZero();
        rows.sort(Comparator.comparing((RollupBuffer.Rollup r) -> r.toNode).thenComparing(r -> r.second));
        assertThat(rows).hasSize(3);
        RollupBuffer.Rollup first = rows.get(1);
        assertThat(first.toNode).isEqualTo("s1");
        assertThat(first.second).isEqualTo(Instant.ofEpochSecond(10));
        assertThat(first.samples).isEqualTo(2);
        assertThat(first.rateSum).isEqualTo(400);
        assertThat(first.rateMax).isEqualTo(300);
        assertThat(first.utilMax).isEqualTo(0.75);
        assertThat(first.dropMax).isEqualTo(0.01);
        assertThat(first.ecnMax).isNull();
        assertThat(first.hot).isTrue();
        assertThat(rows.get(2).second).isEqualTo(Instant.ofEpochSecond(11));
        assertThat(rows.get(2).hot).isFalse();
    }
}
