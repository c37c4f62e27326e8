// Package agent is the NIC agent's control loop: pull the NIC's profile from scheduler-api,
// apply each version to the host as one step, keep it through outages, probe and report.
package agent

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"sync"
	"time"

	"weft.io/nic-agent/internal/evpub"
	"weft.io/nic-agent/internal/host"
	"weft.io/nic-agent/internal/profile"
	"weft.io/nic-agent/internal/route"
	"weft.io/nic-agent/internal/scheduler"
	"weft.io/nic-agent/internal/state"
)

// Config is what one agent needs; the CLI fills it from flags, environment and a config file.
type Config struct {
	NIC            string
	Uplink         host.Uplink
	StateFile      string        // last version and applied routes; "" = none
	EVFile         string        // HCCL-shaped EV file; "" = none
	Wait           time.Duration // long-poll wait asked of scheduler-api
	BackoffBase    time.Duration
	BackoffMax     time.Duration
	ReportInterval time.Duration // 0 = no reports
	ProbeInterval  time.Duration // 0 = no probes
	ProbeTimeout   time.Duration
	ProbeLosses    int // consecutive lost probes that make an entry ASSUMED_BAD
	// Stream follows the profile stream (one long-lived response) and falls back to long-polls
	// when the server has none.
	Stream bool
}

// Poller is the part of scheduler-api the loop needs (scheduler.Client; a fake in tests).
type Poller interface {
	Paths(ctx context.Context, since int64, wait time.Duration) (scheduler.Poll, error)
	Stream(ctx context.Context, since int64, opened func(), onProfile func(*profile.Profile)) error
	Report(ctx context.Context, r any) error
}

// Agent is one NIC's agent.
type Agent struct {
	cfg      Config
	poller   Poller
	prog     route.Kernel
	counters Counters // nil = no kernel counters in reports
	prober   Prober   // nil = no probes
	// nicCounters are the RDMA NIC's ECN/CNP/loss counts; nil where the host exposes none.
	nicCounters NICCounters
	log         *slog.Logger
	m           *metrics

	mu      sync.Mutex
	profile *profile.Profile // last profile received (applied, perhaps partly)
	bad     map[string]bool  // entries this agent's probes found failing
	status  Status
	onApply func(host.Desired) // test hook, called after each apply
}

// New wires an agent; counters and prober may be nil.
func New(cfg Config, p Poller, prog route.Kernel, counters Counters, prober Prober, log *slog.Logger) *Agent {
	if cfg.Wait <= 0 {
		cfg.Wait = 30 * time.Second
	}
	if cfg.BackoffBase <= 0 {
		cfg.BackoffBase = 500 * time.Millisecond
	}
	if cfg.BackoffMax <= 0 {
		cfg.BackoffMax = 30 * time.Second
	}
	if cfg.ProbeLosses <= 0 {
		cfg.ProbeLosses = 3
	}
	if cfg.ProbeTimeout <= 0 {
		cfg.ProbeTimeout = 500 * time.Millisecond
	}
	return &Agent{cfg: cfg, poller: p, prog: prog, counters: counters, prober: prober, log: log, m: newMetrics(),
		bad: map[string]bool{}, status: Status{NIC: cfg.NIC, Version: -1, State: StateStarting}}
}

// Resume applies the profile of the state file, if any, and returns the version to poll from
// (-1 without a state file: ask for the current profile at once). Routes still right are kept.
func (a *Agent) Resume(ctx context.Context) (int64, error) {
	if a.cfg.StateFile == "" {
		return -1, nil
	}
	s, err := state.Load(a.cfg.StateFile)
	if err != nil || s == nil {
		return -1, err
	}
	if s.NIC != a.cfg.NIC || s.Profile == nil {
		a.log.Warn("state file is for another NIC or empty; starting afresh", "file", a.cfg.StateFile, "nic", s.NIC)
		return -1, nil
	}
	a.mu.Lock()
	for _, id := range s.Bad {
		a.bad[id] = true
	}
	a.mu.Unlock()
	if err := a.apply(ctx, s.Profile, "resume"); err != nil {
		return -1, err
	}
	return s.Profile.Version, nil
}

// Run pulls and applies until ctx ends. once=true stops after the first answer is applied.
func (a *Agent) Run(ctx context.Context, once bool) error {
	since, err := a.Resume(ctx)
	if err != nil {
		a.log.Error("resume from the state file failed; starting afresh", "err", err)
		since = -1
	}
	if !once {
		var wg sync.WaitGroup
		defer wg.Wait()
		bg, cancel := context.WithCancel(ctx)
		defer cancel()
		if a.cfg.ReportInterval > 0 {
			wg.Go(func() { a.reportLoop(bg) })
		}
		if a.prober != nil && a.cfg.ProbeInterval > 0 {
			wg.Go(func() { a.probeLoop(bg) })
		}
	}
	bo := backoff{base: a.cfg.BackoffBase, max: a.cfg.BackoffMax}
	streaming := a.cfg.Stream && !once
	for ctx.Err() == nil {
		if streaming {
			opened := time.Now()
			err := a.poller.Stream(ctx, since, func() {
				bo.reset()
				a.m.connected.Set(1)
				a.setOnline()
			}, func(p *profile.Profile) {
				a.m.polls.WithLabelValues("changed").Inc()
				a.setOnline()
				if err := a.apply(ctx, p, "stream"); err != nil {
					a.log.Error("apply failed; keeping what the kernel holds", "version", p.Version, "err", err)
				}
				since = p.Version
			})
			switch {
			case ctx.Err() != nil:
			case errors.Is(err, scheduler.ErrNoStream):
				a.log.Info("scheduler-api has no profile stream; long-polling instead")
				streaming = false
			case err == nil && time.Since(opened) >= time.Second:
				a.log.Debug("profile stream ended; reconnecting", "since", since)
			default:
				if err == nil {
					// A stream the server ends at once (it is stopping) is retried with backoff, not in a loop.
					err = errors.New("profile stream ended at once")
				}
				d := bo.next()
				a.m.polls.WithLabelValues("error").Inc()
				a.m.connected.Set(0)
				a.setOffline(err, d)
				a.log.Warn("scheduler-api unreachable; keeping the applied paths", "err", err, "retryIn", d, "failures", bo.failures)
				select {
				case <-ctx.Done():
				case <-time.After(d):
				}
			}
			continue
		}
		wait := a.cfg.Wait
		if once {
			wait = 0
		}
		poll, err := a.poller.Paths(ctx, since, wait)
		if ctx.Err() != nil {
			break
		}
		if err != nil {
			d := bo.next()
			a.m.polls.WithLabelValues("error").Inc()
			a.m.connected.Set(0)
			a.setOffline(err, d)
			a.log.Warn("scheduler-api unreachable; keeping the applied paths", "err", err, "retryIn", d, "failures", bo.failures)
			if once {
				return fmt.Errorf("fetch the profile: %w", err)
			}
			select {
			case <-ctx.Done():
			case <-time.After(d):
			}
			continue
		}
		bo.reset()
		a.m.connected.Set(1)
		a.setOnline()
		if poll.Changed {
			a.m.polls.WithLabelValues("changed").Inc()
			if err := a.apply(ctx, poll.Profile, "poll"); err != nil {
				a.log.Error("apply failed; keeping what the kernel holds", "version", poll.Profile.Version, "err", err)
			}
			since = poll.Profile.Version
		} else {
			a.m.polls.WithLabelValues("unchanged").Inc()
		}
		if once {
			return nil
		}
	}
	return nil
}

// apply compiles p with the current probe verdicts and brings the kernel, the EV file and the
// state file to it. One version is one step: every route is replaced in place before any is
// deleted, so traffic always has a route.
func (a *Agent) apply(ctx context.Context, p *profile.Profile, why string) error {
	start := time.Now()
	a.mu.Lock()
	bad := maps.Clone(a.bad)
	a.mu.Unlock()
	d := host.Compile(*p, a.cfg.Uplink, bad)
	ch, failures, err := host.Reconcile(ctx, a.prog, d.Routes)
	if err != nil {
		return err
	}
	sch, sfailures, err := host.ReconcileSteering(ctx, a.prog, d.Steering)
	if err != nil {
		return err
	}
	routeFailures := len(failures)
	failures = append(failures, sfailures...)
	ch.Replaced, ch.Deleted, ch.Kept = ch.Replaced+sch.Replaced, ch.Deleted+sch.Deleted, ch.Kept+sch.Kept
	if a.cfg.EVFile != "" {
		if err := evpub.WriteFile(a.cfg.EVFile, d.EV); err != nil {
			return fmt.Errorf("ev file: %w", err)
		}
	}
	if a.cfg.StateFile != "" {
		err := state.Save(a.cfg.StateFile, state.State{NIC: a.cfg.NIC, SavedAt: time.Now().UTC(), Profile: p,
			Bad: slices.Sorted(maps.Keys(bad)), Applied: d, Failures: failures})
		if err != nil {
			return fmt.Errorf("state file: %w", err)
		}
	}
	took := time.Since(start)
	a.m.applySeconds.Observe(took.Seconds())
	a.m.applies.Inc()
	a.m.version.Set(float64(p.Version))
	a.m.routes.Set(float64(len(d.Routes) - routeFailures))
	a.m.active.Set(float64(len(d.Active)))
	a.m.rejected.Set(float64(len(d.Rejected)))
	a.m.assumedBad.Set(float64(len(bad)))
	a.m.routeChanges.WithLabelValues("replace").Add(float64(ch.Replaced))
	a.m.routeChanges.WithLabelValues("delete").Add(float64(ch.Deleted))
	a.m.routeChanges.WithLabelValues("fail").Add(float64(len(failures)))
	for _, r := range d.Rejected {
		a.log.Warn("entry rejected", "version", p.Version, "peer", r.Peer, "entry", r.Entry, "field", r.Field, "reason", r.Reason)
	}
	for _, f := range failures {
		a.log.Error("kernel refused a route", "version", p.Version, "dst", f.Dst, "err", f.Err)
	}
	a.log.Info("applied", "why", why, "version", p.Version, "routes", len(d.Routes), "ev", len(d.EV),
		"replaced", ch.Replaced, "deleted", ch.Deleted, "kept", ch.Kept, "rejected", len(d.Rejected), "took", took)
	a.mu.Lock()
	a.profile = p
	a.status.Version = p.Version
	a.status.Applied = d
	a.status.LastChanges = ch
	a.status.KernelFailures = failures
	a.status.AppliedAt = time.Now().UTC()
	a.status.ProbeBad = slices.Sorted(maps.Keys(bad))
	hook := a.onApply
	a.mu.Unlock()
	if hook != nil {
		hook(d)
	}
	return nil
}

// markBad records a probe verdict on an entry and re-applies the current profile when it
// changes what the host uses.
func (a *Agent) markBad(ctx context.Context, id string, isBad bool) {
	a.mu.Lock()
	if a.bad[id] == isBad {
		a.mu.Unlock()
		return
	}
	if isBad {
		a.bad[id] = true
	} else {
		delete(a.bad, id)
	}
	p := a.profile
	a.mu.Unlock()
	a.log.Warn("probe verdict changed", "entry", id, "assumedBad", isBad)
	if p != nil {
		if err := a.apply(ctx, p, "probe"); err != nil && !errors.Is(err, context.Canceled) {
			a.log.Error("re-apply after a probe verdict failed", "err", err)
		}
	}
}
