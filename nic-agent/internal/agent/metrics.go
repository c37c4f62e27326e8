package agent

import (
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
)

// metrics are the agent's Prometheus series, on their own registry (no global state, so tests
// can run several agents in one process).
type metrics struct {
	reg          *prometheus.Registry
	version      prometheus.Gauge
	connected    prometheus.Gauge
	routes       prometheus.Gauge
	active       prometheus.Gauge
	rejected     prometheus.Gauge
	assumedBad   prometheus.Gauge
	polls        *prometheus.CounterVec
	applies      prometheus.Counter
	routeChanges *prometheus.CounterVec
	reports      *prometheus.CounterVec
	probes       *prometheus.CounterVec
	applySeconds prometheus.Histogram
}

func newMetrics() *metrics {
	m := &metrics{
		reg:       prometheus.NewRegistry(),
		version:   prometheus.NewGauge(prometheus.GaugeOpts{Name: "weft_agent_profile_version", Help: "Version of the last profile applied."}),
		connected: prometheus.NewGauge(prometheus.GaugeOpts{Name: "weft_agent_connected", Help: "1 while scheduler-api answers, 0 while the agent runs fail-static."}),
		routes:    prometheus.NewGauge(prometheus.GaugeOpts{Name: "weft_agent_routes", Help: "SRv6 routes the agent holds in the kernel."}),
		active:    prometheus.NewGauge(prometheus.GaugeOpts{Name: "weft_agent_active_entries", Help: "Profile entries in use."}),
		rejected:  prometheus.NewGauge(prometheus.GaugeOpts{Name: "weft_agent_rejected_entries", Help: "Profile entries or peers of the current version the agent refused."}),
		assumedBad: prometheus.NewGauge(prometheus.GaugeOpts{Name: "weft_agent_probe_bad_entries",
			Help: "Entries the agent's own probes marked ASSUMED_BAD."}),
		polls: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "weft_agent_polls_total",
			Help: "Long-polls by outcome (changed, unchanged, error)."}, []string{"result"}),
		applies: prometheus.NewCounter(prometheus.CounterOpts{Name: "weft_agent_applies_total", Help: "Profile versions applied."}),
		routeChanges: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "weft_agent_route_changes_total",
			Help: "Kernel route operations (replace, delete, fail)."}, []string{"op"}),
		reports: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "weft_agent_reports_total",
			Help: "Flow reports sent (ok, error)."}, []string{"result"}),
		probes: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "weft_agent_probes_total",
			Help: "Probes along entries (ok, lost)."}, []string{"result"}),
		applySeconds: prometheus.NewHistogram(prometheus.HistogramOpts{Name: "weft_agent_apply_seconds",
			Help: "Time to apply one profile version to the kernel.", Buckets: prometheus.ExponentialBuckets(0.0005, 2, 14)}),
	}
	m.reg.MustRegister(m.version, m.connected, m.routes, m.active, m.rejected, m.assumedBad, m.polls, m.applies,
		m.routeChanges, m.reports, m.probes, m.applySeconds,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}
