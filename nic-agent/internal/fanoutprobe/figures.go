package fanoutprobe

import (
	"fmt"
	"math"
	"sort"
	"strings"
)

// Figures summarise one round's samples (ms): how many, the earliest, nearest-rank p50 and p99,
// and the latest. The percentiles are the Java bench's (ApiBench.pct), so the two clients' figures
// compare.
type Figures struct {
	N                            int
	FirstMs, P50Ms, P99Ms, MaxMs float64
}

// Summarise sorts a copy of ms and reads its figures; with no samples every figure is NaN.
func Summarise(ms []float64) Figures {
	s := append([]float64(nil), ms...)
	sort.Float64s(s)
	if len(s) == 0 {
		return Figures{FirstMs: math.NaN(), P50Ms: math.NaN(), P99Ms: math.NaN(), MaxMs: math.NaN()}
	}
	return Figures{N: len(s), FirstMs: s[0], P50Ms: Percentile(s, 50), P99Ms: Percentile(s, 99), MaxMs: s[len(s)-1]}
}

// Percentile is the nearest-rank percentile (p in 1..100) of sorted samples; NaN for none.
func Percentile(sorted []float64, p float64) float64 {
	if len(sorted) == 0 {
		return math.NaN()
	}
	rank := int(math.Ceil(p / 100 * float64(len(sorted))))
	return sorted[max(0, min(len(sorted)-1, rank-1))]
}

// fields appends the figures as key=value words named prefix_first_ms, prefix_p50_ms, ...
func (f Figures) fields(b *strings.Builder, prefix string) {
	for _, kv := range []struct {
		k string
		v float64
	}{{"first", f.FirstMs}, {"p50", f.P50Ms}, {"p99", f.P99Ms}, {"max", f.MaxMs}} {
		fmt.Fprintf(b, " %s_%s_ms=%s", prefix, kv.k, number(kv.v))
	}
}

// number prints ms with µs resolution, NaN as "nan" (the reader maps it to null).
func number(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "nan"
	}
	return fmt.Sprintf("%.3f", v)
}
