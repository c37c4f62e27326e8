package fanoutprobe

import (
	"math"
	"strings"
	"testing"
)

func TestFiguresAreNearestRankLikeTheJavaBench(t *testing.T) {
	// The Java bench's ApiBenchMathTest uses the same samples and expects the same ranks.
	f := Summarise([]float64{5, 1, 4, 2, 3, 6, 7, 8, 9, 10})
	if f.N != 10 || f.FirstMs != 1 || f.P50Ms != 5 || f.P99Ms != 10 || f.MaxMs != 10 {
		t.Fatalf("figures %+v", f)
	}
	hundred := make([]float64, 100)
	for i := range hundred {
		hundred[i] = float64(100 - i)
	}
	if f := Summarise(hundred); f.P99Ms != 99 || f.P50Ms != 50 {
		t.Fatalf("p50/p99 of 1..100: %v / %v", f.P50Ms, f.P99Ms)
	}
	if hundred[0] != 100 {
		t.Fatal("Summarise sorted the caller's slice")
	}
	if f := Summarise(nil); f.N != 0 || !math.IsNaN(f.P99Ms) {
		t.Fatalf("no samples: %+v", f)
	}
}

func TestRoundLineNamesEveryFigure(t *testing.T) {
	r := Round{Events: 3, Delivered: Summarise([]float64{1, 2, 3}), Read: Summarise([]float64{4, 5, 6}),
		Update: Summarise(nil), PublishedMinUs: 1700000000000000, CPUMs: 12.5}
	line := r.Line()
	for _, want := range []string{"round events=3 ", "unstamped=0", "published_min_us=1700000000000000",
		"cpu_ms=12.500", "delivered_first_ms=1.000", "delivered_p50_ms=2.000", "delivered_p99_ms=3.000",
		"read_p99_ms=6.000", "update_p50_ms=nan"} {
		if !strings.Contains(line, want) {
			t.Errorf("%q lacks %q", line, want)
		}
	}
}
