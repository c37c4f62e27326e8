package io.weft.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

class OctetRatesTest {
    private static final long S = 1_000_000_000L;
    // leaf1:eth1 is a 400G fabric link, spine1:eth3 a 100G one; anything else is not in the fabric.
    private final OctetRates rates = new OctetRates((target, iface) ->
            target.equals("leaf1") && iface.equals("eth1") ? Double.valueOf(400)
                    : target.equals("spine1") && iface.equals("eth3") ? Double.valueOf(100) : null);

    @Test
    void ratesEveryOctetCounterOfAnInterfaceAndIgnoresPacketCounters() {
        assertThat(rates.accept(sample("leaf1", "eth1", null, 0, 0, 0, 7)))
                .extracting(r -> r.result().kind())
                .containsExactly(CounterRate.Kind.FIRST, CounterRate.Kind.FIRST);
        List<OctetRates.Rate> second =
                rates.accept(sample("leaf1", "eth1", null, S, 12_500_000_000L, 25_000_000_000L, 9));
        assertThat(second).hasSize(2);
        assertThat(second.get(0).key().counter()).isEqualTo(Counter.IN_OCTETS);
        assertThat(second.get(0).result().rateGbps()).isEqualTo(100.0);
        assertThat(second.get(1).key().counter()).isEqualTo(Counter.OUT_OCTETS);
        assertThat(second.get(1).result().rateGbps()).isEqualTo(200.0);
        assertThat(second.get(1).timestampNs()).isEqualTo(S);
        assertThat(rates.size()).isEqualTo(2);
    }

    @Test
    void theLineRateOfTheInterfaceDecidesWrapOrReset() {
        // The same backwards step is a wrap at 400G (leaf1:eth1) and a reset at 100G (spine1:eth3).
        long before = -18_750_000_001L; // 2^64 - 18 750 000 001 as unsigned
        rates.accept(sample("leaf1", "eth1", null, 0, before, 0, 0));
        rates.accept(sample("spine1", "eth3", null, 0, before, 0, 0));
        assertThat(rates.accept(sample("leaf1", "eth1", null, S, 0, 0, 0)).get(0).result().kind())
                .isEqualTo(CounterRate.Kind.WRAP);
        assertThat(rates.accept(sample("spine1", "eth3", null, S, 0, 0, 0)).get(0).result().kind())
                .isEqualTo(CounterRate.Kind.RESET);
    }

    @Test
    void queuesOfOneInterfaceHaveTheirOwnState() {
        rates.accept(sample("leaf1", "eth1", "3", 0, 100, 100, 0));
        List<OctetRates.Rate> q0 = rates.accept(sample("leaf1", "eth1", "0", S, 100, 100, 0));
        assertThat(q0).extracting(r -> r.result().kind()).containsOnly(CounterRate.Kind.FIRST);
        assertThat(q0.get(0).key().queue()).isEqualTo("0");
    }

    @Test
    void interfacesOutsideTheFabricAreSkippedAndForgettingStartsOver() {
        assertThat(rates.accept(sample("leaf1", "mgmt0", null, 0, 1, 1, 0))).isEmpty();
        assertThat(rates.size()).isZero();
        rates.accept(sample("leaf1", "eth1", null, 0, 1, 1, 0));
        rates.forget("leaf1", "eth1");
        assertThat(rates.size()).isZero();
        assertThat(rates.accept(sample("leaf1", "eth1", null, S, 2, 2, 0)).get(0).result().kind())
                .isEqualTo(CounterRate.Kind.FIRST);
    }

    private static InterfaceSample sample(String target, String iface, String queue, long t,
            long in, long out, long pkts) {
        Map<Counter, Long> c = new EnumMap<>(Counter.class);
        c.put(Counter.IN_OCTETS, in);
        c.put(Counter.OUT_OCTETS, out);
        c.put(Counter.IN_PKTS, pkts);
        return new InterfaceSample(target, iface, queue, t, c, null);
    }
}
