package io.weft.telemetry.live;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import io.weft.contracts.LinkLoad;
import org.junit.jupiter.api.Test;

class LiveLoadsTest {
    private static LinkLoad load(String link, String to, double u) {
        return new LinkLoad("f", link, to, 1, u * 100, 100, u, Double.NaN, Double.NaN, "UP", false);
    }

    private static List<String> keys(LiveLoads.View v) {
        return v.loads().stream().map(LinkLoad::key).sorted().toList();
    }

    @Test
    void aSnapshotHoldsTheLatestLoadOfEveryPresentDirection() {
        LiveLoads l = new LiveLoads("e1");
        l.apply(load("a", "x", 0.1));
        l.apply(load("a", "x", 0.7));
        l.apply(load("b", "y", 0.2));
        l.remove("b>y");
        LiveLoads.View s = l.snapshot();
        assertThat(s.seq()).isEqualTo(4);
        assertThat(keys(s)).containsExactly("a>x");
        assertThat(s.loads().get(0).utilisation()).isEqualTo(0.7);
    }

    @Test
    void sinceGivesEveryDirectionChangedAfterAPositionWithRemovals() {
        LiveLoads l = new LiveLoads("e1");
        l.apply(load("a", "x", 0.1));
        l.apply(load("b", "y", 0.2));
        long mark = l.seq();
        l.apply(load("c", "z", 0.3));
        l.remove("b>y");
        l.apply(load("c", "z", 0.4));
        LiveLoads.View d = l.since(mark);
        assertThat(d.fromSeq()).isEqualTo(2);
        assertThat(d.seq()).isEqualTo(5);
        assertThat(keys(d)).containsExactly("c>z");
        assertThat(d.loads().get(0).utilisation()).isEqualTo(0.4);
        assertThat(d.removed()).containsExactly("b>y");
        assertThat(l.since(l.seq()).loads()).isEmpty();
        assertThatThrownBy(() -> l.since(6)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void drainCoalescesChangesBetweenTicks() {
        LiveLoads l = new LiveLoads("e1");
        assertThat(l.drainChanged()).isNull();
        for (int i = 0; i < 10; i++) {
            l.apply(load("a", "x", i / 10.0));
        }
        l.apply(load("b", "y", 0.5));
        LiveLoads.View first = l.drainChanged();
        assertThat(keys(first)).containsExactly("a>x", "b>y");
        assertThat(first.loads().get(0).utilisation()).isEqualTo(0.9);
        assertThat(first.fromSeq()).isZero();
        assertThat(first.seq()).isEqualTo(11);
        assertThat(l.drainChanged()).isNull();
        l.remove("b>y");
        l.remove("q>r"); // removing an unknown direction is no change
        LiveLoads.View second = l.drainChanged();
        assertThat(second.fromSeq()).isEqualTo(11);
        assertThat(second.removed()).containsExactly("b>y");
        assertThat(second.loads()).isEmpty();
    }
}
