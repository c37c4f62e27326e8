package agent

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vishvananda/netlink"
	"github.com/vishvananda/netns"
	"golang.org/x/sys/unix"

	"weft.io/nic-agent/internal/host"
	"weft.io/nic-agent/internal/netnstest"
	"weft.io/nic-agent/internal/profile"
	"weft.io/nic-agent/internal/route"
)

func kernelRoutes(t *testing.T, ns string) string {
	t.Helper()
	out, err := exec.Command("ip", "-n", ns, "-6", "route", "show", "proto", "200").CombinedOutput()
	if err != nil {
		t.Fatalf("ip -6 route show: %s", out)
	}
	return string(out)
}

// routeMonitor records every route notification of the namespace (a netlink monitor, like
// `ip monitor route`), to prove what the agent did and did not do to the kernel.
type routeMonitor struct {
	mu      sync.Mutex
	updates []netlink.RouteUpdate
	done    chan struct{}
}

func watchRoutes(t *testing.T, ns string) *routeMonitor {
	t.Helper()
	h, err := netns.GetFromName(ns)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	m := &routeMonitor{done: make(chan struct{})}
	ch := make(chan netlink.RouteUpdate, 256)
	if err := netlink.RouteSubscribeWithOptions(ch, m.done, netlink.RouteSubscribeOptions{Namespace: &h,
		ErrorCallback: func(err error) {
			select {
			case <-m.done: // the socket's receive fails once the monitor is stopped
			default:
				t.Errorf("route monitor: %v", err)
			}
		}}); err != nil {
		t.Fatal(err)
	}
	go func() {
		for u := range ch {
			m.mu.Lock()
			m.updates = append(m.updates, u)
			m.mu.Unlock()
		}
	}()
	t.Cleanup(m.stop)
	return m
}

func (m *routeMonitor) stop() {
	select {
	case <-m.done:
	default:
		close(m.done)
	}
}

// ours returns the agent's notifications (its protocol) as "new DST" / "del DST".
func (m *routeMonitor) ours() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []string
	for _, u := range m.updates {
		if u.Route.Protocol != route.Protocol || u.Route.Table != unix.RT_TABLE_MAIN || u.Route.Dst == nil {
			continue
		}
		op := "new"
		if u.Type == unix.RTM_DELROUTE {
			op = "del"
		}
		out = append(out, op+" "+u.Route.Dst.String())
	}
	return out
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

const (
	cA = "fcbb:bb00:11:1:12:e000::"
	cB = "fcbb:bb00:11:2:12:e000::"
	cC = "fcbb:bb00:11:2:13:e000::"
	p2 = "fd00:ef7:12::2"
	p3 = "fd00:ef7:13::3"
)

func testProfile(version int64, nic2Carrier string) profile.Profile {
	e := func(id, c string, w int) profile.Entry {
		return profile.Entry{ID: id, JobID: new("j1"), Format: "srv6", Value: new(c), Carriers: []string{c}, Weight: w, State: "GOOD"}
	}
	return profile.Profile{NIC: "nic1", Version: version, Peers: []profile.Peer{
		{Peer: "nic2", Address: new(p2), MinActive: 1, Entries: []profile.Entry{e("f1#srv6", nic2Carrier, 100),
			{ID: "f1#ev", JobID: new("j1"), Format: "udp-sport", Value: new("49920"), Weight: 100, State: "GOOD"}}},
		{Peer: "nic3", Address: new(p3), MinActive: 1, Entries: []profile.Entry{e("f2#srv6", cB, 300), e("f3#srv6", cC, 100),
			{ID: "f4#srv6", JobID: new("j1"), Format: "srv6", Carriers: []string{"fcbb:bb00::", "bogus"}, Weight: 1, State: "GOOD"}}},
	}}
}

type runningAgent struct {
	t      *testing.T
	a      *Agent
	cancel context.CancelFunc
	done   chan error
}

func startAgent(t *testing.T, ns, server, dir string) *runningAgent {
	t.Helper()
	return startAgentWithPorts(t, ns, server, dir, nil)
}

// startAgentWithPorts starts an agent whose NIC has one port per plane, ports[link] each.
func startAgentWithPorts(t *testing.T, ns, server, dir string, ports map[string]host.Port) *runningAgent {
	t.Helper()
	prog, err := route.NewNetlink(ns)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(prog.Close)
	up, err := host.DetectUplink(prog.Handle(), host.Uplink{})
	if err != nil {
		t.Fatal(err)
	}
	if up.Dev != "v0" || up.Via != "2001:db8:ff::2" || up.Address != "2001:db8:ff::1" {
		t.Fatalf("uplink detected as %+v, want v0 via 2001:db8:ff::2 from 2001:db8:ff::1", up)
	}
	up.Ports = ports
	client := newClient(t, server)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	if testing.Verbose() {
		log = slog.New(slog.NewTextHandler(os.Stderr, nil))
	}
	a := New(Config{NIC: "nic1", Uplink: up, StateFile: filepath.Join(dir, "state.json"), EVFile: filepath.Join(dir, "ev"),
		Wait: 2 * time.Second, BackoffBase: 50 * time.Millisecond, BackoffMax: 200 * time.Millisecond}, client, prog, nil, nil, log)
	ctx, cancel := context.WithCancel(context.Background())
	r := &runningAgent{t: t, a: a, cancel: cancel, done: make(chan error, 1)}
	go func() { r.done <- a.Run(ctx, false) }()
	t.Cleanup(r.stop)
	return r
}

func (r *runningAgent) stop() {
	r.cancel()
	if err := <-r.done; err != nil {
		r.t.Errorf("agent run: %v", err)
	}
	r.done <- nil // later stops return at once
}

// TestAgentInNetns drives one agent through the lifecycle the issue asks for, against a fresh
// namespace's kernel: apply, replace without a gap, restart without churn, outage.
func TestAgentInNetns(t *testing.T) {
	ns := newTestNetns(t)
	dir := t.TempDir()
	fake := newFakeScheduler(t, "tok-nic1", testProfile(1, cA))

	ag := startAgent(t, ns, fake.srv.URL, dir)
	waitFor(t, "version 1 applied", func() bool { return ag.a.Snapshot().Version == 1 })
	parent := t // agents started in a subtest must outlive it

	t.Run("apply: routes are in the kernel, the bad entry rejected by name", func(t *testing.T) {
		text := kernelRoutes(t, ns)
		for _, want := range []string{
			p2 + "  encap seg6 mode encap.red segs 1 [ " + cA + " ] via 2001:db8:ff::2 dev v0",
			"nexthop  encap seg6 mode encap.red segs 1 [ " + cB + " ] via 2001:db8:ff::2 dev v0 weight 256",
			"nexthop  encap seg6 mode encap.red segs 1 [ " + cC + " ] via 2001:db8:ff::2 dev v0 weight 85",
		} {
			if !strings.Contains(text, want) {
				t.Errorf("kernel lacks %q:\n%s", want, text)
			}
		}
		s := ag.a.Snapshot()
		if len(s.Applied.Rejected) != 1 || s.Applied.Rejected[0].EntryID() != "f4#srv6" ||
			s.Applied.Rejected[0].Field != "peers[1].entries[2].carriers[1]" {
			t.Errorf("rejected = %+v, want f4#srv6 at peers[1].entries[2].carriers[1]", s.Applied.Rejected)
		}
		ev, err := os.ReadFile(filepath.Join(dir, "ev"))
		if err != nil || string(ev) != "2001:db8:ff::1,"+p2+"=49920\n" {
			t.Errorf("ev file = %q, %v", ev, err)
		}
	})

	t.Run("next version replaces in place: no moment without a route", func(t *testing.T) {
		mon := watchRoutes(t, ns)
		fake.set(testProfile(2, cB))
		waitFor(t, "version 2 applied", func() bool { return ag.a.Snapshot().Version == 2 })
		time.Sleep(100 * time.Millisecond) // let the monitor drain
		mon.stop()
		got := mon.ours()
		if strings.Join(got, ",") != "new "+p2+"/128" {
			t.Errorf("route notifications = %q, want one replace of %s and no delete", got, p2)
		}
		if text := kernelRoutes(t, ns); !strings.Contains(text, p2+"  encap seg6 mode encap.red segs 1 [ "+cB+" ]") {
			t.Errorf("kernel does not route %s over %s:\n%s", p2, cB, text)
		}
	})

	t.Run("multipath to one path and back: replaced in place", func(t *testing.T) {
		for _, step := range []struct {
			version int64
			entries []profile.Entry
			want    string
		}{
			{3, []profile.Entry{{ID: "f2#srv6", Format: "srv6", Carriers: []string{cA}, Weight: 1, State: "GOOD"}},
				p3 + "  encap seg6 mode encap.red segs 1 [ " + cA + " ]"},
			{4, testProfile(2, cB).Peers[1].Entries, "weight 85"},
		} {
			mon := watchRoutes(t, ns)
			p := testProfile(step.version, cB)
			p.Peers[1].Entries = step.entries
			fake.set(p)
			waitFor(t, fmt.Sprintf("version %d applied", step.version), func() bool { return ag.a.Snapshot().Version == step.version })
			time.Sleep(100 * time.Millisecond)
			mon.stop()
			if got := mon.ours(); strings.Join(got, ",") != "new "+p3+"/128" {
				t.Errorf("version %d: route notifications = %q, want one replace of %s and no delete", step.version, got, p3)
			}
			if text := kernelRoutes(t, ns); !strings.Contains(text, step.want) {
				t.Errorf("version %d: kernel lacks %q:\n%s", step.version, step.want, text)
			}
		}
	})

	t.Run("restart from the state file: nothing deleted or re-added", func(t *testing.T) {
		ag.stop()
		before := kernelRoutes(t, ns)
		mon := watchRoutes(t, ns)
		ag2 := startAgent(parent, ns, fake.srv.URL, dir)
		waitFor(t, "version 4 resumed", func() bool { return ag2.a.Snapshot().Version == 4 })
		waitFor(t, "connected", func() bool { return ag2.a.Snapshot().State == StateConnected })
		time.Sleep(200 * time.Millisecond)
		mon.stop()
		if got := mon.ours(); len(got) != 0 {
			t.Errorf("restart touched routes: %q", got)
		}
		if ch := ag2.a.Snapshot().LastChanges; ch.Replaced != 0 || ch.Deleted != 0 || ch.Kept != 2 {
			t.Errorf("restart changes = %+v, want 2 kept", ch)
		}
		if after := kernelRoutes(t, ns); after != before {
			t.Errorf("routes changed over the restart:\nbefore %s\nafter  %s", before, after)
		}
		ag = ag2
	})

	t.Run("controller down: routes kept, status fail-static", func(t *testing.T) {
		before := kernelRoutes(t, ns)
		fake.srv.CloseClientConnections()
		fake.srv.Close()
		waitFor(t, "fail-static", func() bool { return ag.a.Snapshot().State == StateFailStatic })
		waitFor(t, "three failed retries", func() bool { return ag.a.Snapshot().Failures >= 3 })
		s := ag.a.Snapshot()
		if s.LastError == "" || s.RetryIn == "" || s.Version != 4 {
			t.Errorf("status = %+v, want the error, a retry delay and version 4", s)
		}
		if after := kernelRoutes(t, ns); after != before {
			t.Errorf("routes changed while the controller was down:\nbefore %s\nafter  %s", before, after)
		}
	})
}

// TestAgentRemovesOnlyItsOwnRoutes: a peer dropped from the profile loses its route; a route of
// another protocol to the same kind of destination stays.
func TestAgentRemovesOnlyItsOwnRoutes(t *testing.T) {
	ns := newTestNetns(t)
	if out, err := exec.Command("ip", "-n", ns, "-6", "route", "add", "fd00:ef7:99::9/128", "encap", "seg6", "mode",
		"encap.red", "segs", cA, "via", "2001:db8:ff::2", "dev", "v0").CombinedOutput(); err != nil {
		t.Fatalf("foreign route: %s", out)
	}
	fake := newFakeScheduler(t, "tok-nic1", testProfile(1, cA))
	ag := startAgent(t, ns, fake.srv.URL, t.TempDir())
	waitFor(t, "version 1", func() bool { return ag.a.Snapshot().Version == 1 })
	p := testProfile(2, cA)
	p.Peers = p.Peers[:1]
	fake.set(p)
	waitFor(t, "version 2", func() bool { return ag.a.Snapshot().Version == 2 })
	if text := kernelRoutes(t, ns); strings.Contains(text, p3) || !strings.Contains(text, p2) {
		t.Errorf("agent routes after dropping nic3:\n%s", text)
	}
	out, _ := exec.Command("ip", "-n", ns, "-6", "route", "show", "fd00:ef7:99::9").CombinedOutput()
	if !strings.Contains(string(out), "fd00:ef7:99::9") {
		t.Errorf("the foreign route is gone")
	}
}

// newTestNetns is netnstest.New with lo up and a default route via 2001:db8:ff::2 on v0.
func newTestNetns(t *testing.T) string {
	t.Helper()
	return netnstest.New(t, "weft-ag", []string{"link", "set", "lo", "up"},
		[]string{"-6", "route", "add", "default", "via", "2001:db8:ff::2", "dev", "v0"})
}
