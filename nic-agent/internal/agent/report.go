package agent

import (
	"context"
	"net/netip"
	"strconv"
	"time"

	"weft.io/nic-agent/internal/contract"
	"weft.io/nic-agent/internal/counters"
	"weft.io/nic-agent/internal/host"
	"weft.io/nic-agent/internal/profile"
)

// Counters are the kernel counters the reports read (counters.NFT; a fake in tests).
type Counters interface {
	Track(dsts []string) error
	Read() (map[string]counters.Count, error)
}

// NICCounters are an RDMA NIC's own counts of ECN marks, CNPs and losses (counters.RDMA).
type NICCounters interface {
	Read() (counters.NICCount, error)
}

// UseNICCounters makes reports carry ECN/CNP/drop counts from the NIC; set before Run.
func (a *Agent) UseNICCounters(n NICCounters) { a.nicCounters = n }

// reportLoop sends one batched report per interval while entries are active. Counters are
// cumulative, so a report lost while scheduler-api is away loses no bytes.
func (a *Agent) reportLoop(ctx context.Context) {
	t := time.NewTicker(a.cfg.ReportInterval)
	defer t.Stop()
	prev := map[string]counters.Count{}
	prevAt := time.Now()
	tracked := ""
	nic := nicShares{acc: map[string]counters.NICCount{}}
	rejectedSent := false
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		s := a.Snapshot()
		// Nothing flows and nothing to say: no report. A version whose every entry was refused
		// still reports (its rejections), and so does the first one after they cleared.
		if len(s.Applied.Active) == 0 && len(s.Applied.Rejected) == 0 && !rejectedSent {
			continue
		}
		var now map[string]counters.Count
		if a.counters != nil {
			if key := peersKey(s.Applied.Active); key != tracked {
				if err := a.counters.Track(peerAddrs(s.Applied.Active)); err != nil {
					a.log.Warn("cannot count traffic per peer", "err", err)
				} else {
					tracked = key
				}
			}
			var err error
			if now, err = a.counters.Read(); err != nil {
				a.log.Warn("cannot read the traffic counters", "err", err)
			}
		}
		at := time.Now()
		r, sent := buildReport(a.cfg.NIC, at, s, now, prev, at.Sub(prevAt))
		prev, prevAt = now, at
		if a.nicCounters != nil {
			if c, err := a.nicCounters.Read(); err != nil {
				a.log.Warn("cannot read the NIC's counters", "err", err)
			} else {
				nic.add(c, &r, sent)
			}
		}
		if err := a.poller.Report(ctx, r); err != nil {
			a.m.reports.WithLabelValues("error").Inc()
			a.log.Debug("report not delivered", "err", err)
			continue
		}
		a.m.reports.WithLabelValues("ok").Inc()
		rejectedSent = len(r.Rejected) > 0
	}
}

// buildReport makes one flow per active entry. The kernel counts per peer: with several srv6
// entries to one peer the peer's count is shared out by the entries' weights (the kernel
// spreads flows by hash in those proportions), so those per-entry numbers are estimates.
func buildReport(nic string, at time.Time, s Status, now, prev map[string]counters.Count, dt time.Duration) (contract.FlowReport, []float64) {
	weights := map[string]int{}
	for _, e := range s.Applied.Active {
		weights[e.PeerAddr+"|"+e.Format] += e.Weight
	}
	r := contract.FlowReport{SchemaVersion: contract.FlowReportVersion, NIC: contract.ID(nic), TimestampNs: contract.Uint64(strconv.FormatInt(at.UnixNano(), 10)), Flows: []contract.Flow{},
		Rejected: append([]contract.Rejection(nil), s.Applied.Rejected...)}
	sent := make([]float64, 0, len(s.Applied.Active)) // bytes of each flow over the interval
	for _, e := range s.Applied.Active {
		share := float64(e.Weight) / float64(weights[e.PeerAddr+"|"+e.Format])
		c, p := now[e.PeerAddr], prev[e.PeerAddr]
		f := contract.Flow{FlowID: e.ID, DstNIC: contract.ID(e.Peer),
			Bytes: contract.Uint64Of(uint64(float64(c.Bytes) * share)), ECNMarked: "0", CNPCount: "0", Drops: "0"}
		if e.JobID != "" {
			f.JobID = new(e.JobID)
		}
		d := 0.0
		if c.Bytes >= p.Bytes {
			d = float64(c.Bytes-p.Bytes) * share
		}
		sent = append(sent, d)
		if dt > 0 {
			f.RateGbps = d * 8 / dt.Seconds() / 1e9
		}
		if e.Format == profile.FormatUDPSport {
			ev := e.EV
			f.EV = &ev
		} else {
			// Compile accepted only IPv6 carriers; netip writes them in the schema's canonical form.
			if a, err := netip.ParseAddr(e.Carriers[0]); err == nil {
				f.Carrier = &a
			}
		}
		if rtt, ok := s.ProbeRTTus[e.ID]; ok {
			f.RTTUs = &rtt // unknown RTT: the field is absent (optional in the schema)
		}
		r.Flows = append(r.Flows, f)
	}
	return r, sent
}

// nicShares turns the NIC's own counts (all its RoCEv2 traffic) into per-flow counts: each
// interval's increase is shared out over the active flows by the bytes each sent in it (equally
// when none sent), and accumulated per flow, so a flow's counts start when it does. They are
// estimates: the NIC does not count per flow.
type nicShares struct {
	last counters.NICCount
	seen bool
	acc  map[string]counters.NICCount
}

func (n *nicShares) add(now counters.NICCount, r *contract.FlowReport, sent []float64) {
	delta := now
	if n.seen && now.ECNMarked >= n.last.ECNMarked && now.CNPs >= n.last.CNPs && now.Drops >= n.last.Drops {
		delta = counters.NICCount{ECNMarked: now.ECNMarked - n.last.ECNMarked, CNPs: now.CNPs - n.last.CNPs,
			Drops: now.Drops - n.last.Drops}
	} else if !n.seen {
		delta = counters.NICCount{} // what the NIC counted before this agent looked belongs to no flow here
	}
	n.last, n.seen = now, true
	total := 0.0
	for _, b := range sent {
		total += b
	}
	keep := map[string]counters.NICCount{}
	for i := range r.Flows {
		f := &r.Flows[i]
		share := 1 / float64(len(r.Flows))
		if total > 0 {
			share = sent[i] / total
		}
		c := n.acc[f.FlowID]
		c.ECNMarked += uint64(float64(delta.ECNMarked)*share + 0.5)
		c.CNPs += uint64(float64(delta.CNPs)*share + 0.5)
		c.Drops += uint64(float64(delta.Drops)*share + 0.5)
		keep[f.FlowID] = c
		f.ECNMarked = contract.Uint64Of(c.ECNMarked)
		f.CNPCount = contract.Uint64Of(c.CNPs)
		f.Drops = contract.Uint64Of(c.Drops)
	}
	n.acc = keep // flows that ended are forgotten
}

func peerAddrs(active []host.Active) []string {
	var out []string
	seen := map[string]bool{}
	for _, e := range active {
		if !seen[e.PeerAddr] {
			seen[e.PeerAddr] = true
			out = append(out, e.PeerAddr)
		}
	}
	return out
}

func peersKey(active []host.Active) string {
	k := ""
	for _, a := range peerAddrs(active) {
		k += a + ","
	}
	return k
}
