package agent

import (
	"context"
	"net/netip"
	"time"

	"weft.io/nic-agent/internal/probe"
	"weft.io/nic-agent/internal/profile"
)

// Prober sends one probe along an entry's path (probe.ICMP; a fake in tests).
type Prober interface {
	Probe(ctx context.Context, p probe.Path, timeout time.Duration) (time.Duration, error)
	Forget(keep map[string]bool)
}

// probeLoop probes every GOOD srv6 entry of the current profile, including those it already
// marked bad (so they come back when they answer again). ProbeLosses losses in a row make an
// entry ASSUMED_BAD: the profile is compiled again and traffic moves to the next GOOD entry.
func (a *Agent) probeLoop(ctx context.Context) {
	t := time.NewTicker(a.cfg.ProbeInterval)
	defer t.Stop()
	losses := map[string]int{}
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		paths := a.probePaths()
		keep := map[string]bool{}
		rtts := map[string]float64{}
		for _, p := range paths {
			keep[p.ID] = true
			rtt, err := a.prober.Probe(ctx, p, a.cfg.ProbeTimeout)
			if ctx.Err() != nil {
				return
			}
			if err != nil {
				a.m.probes.WithLabelValues("lost").Inc()
				losses[p.ID]++
				a.log.Debug("probe lost", "entry", p.ID, "losses", losses[p.ID], "err", err)
				if losses[p.ID] == a.cfg.ProbeLosses {
					a.markBad(ctx, p.ID, true)
				}
				continue
			}
			a.m.probes.WithLabelValues("ok").Inc()
			rtts[p.ID] = float64(rtt.Nanoseconds()) / 1e3
			if losses[p.ID] >= a.cfg.ProbeLosses {
				a.markBad(ctx, p.ID, false)
			}
			losses[p.ID] = 0
		}
		for id := range losses {
			if !keep[id] {
				delete(losses, id)
			}
		}
		a.prober.Forget(keep)
		a.mu.Lock()
		a.status.ProbeRTTus = rtts
		a.mu.Unlock()
	}
}

func (a *Agent) probePaths() []probe.Path {
	a.mu.Lock()
	p := a.profile
	a.mu.Unlock()
	if p == nil {
		return nil
	}
	var out []probe.Path
	for _, peer := range p.Peers {
		if peer.Address == nil {
			continue
		}
		addr, err := netip.ParseAddr(*peer.Address)
		if err != nil {
			continue
		}
		for _, e := range peer.Entries {
			if e.Format == profile.FormatSRv6 && e.State == profile.Good && len(e.Carriers) > 0 {
				pp := probe.Path{ID: e.ID, Peer: addr.String(), Carriers: e.Carriers}
				if port, ok := a.cfg.Uplink.Ports[portOf(e)]; ok {
					pp.Dev, pp.Via = port.Dev, port.Via // a multi-plane NIC probes out the entry's own port
				}
				out = append(out, pp)
			}
		}
	}
	return out
}

// portOf is the entry's port, "" when it names none (a single-port NIC).
func portOf(e profile.Entry) string {
	if e.Port == nil {
		return ""
	}
	return *e.Port
}
