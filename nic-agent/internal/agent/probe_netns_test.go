package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"weft.io/nic-agent/internal/contract"
	"weft.io/nic-agent/internal/counters"
	"weft.io/nic-agent/internal/host"
	"weft.io/nic-agent/internal/netnstest"
	"weft.io/nic-agent/internal/probe"
	"weft.io/nic-agent/internal/profile"
	"weft.io/nic-agent/internal/route"
)

// peerNetns joins a second namespace to hostNs's v1 end: it holds the peer address
// fd00:ef7:12::2 and decapsulates (End.DT6) the carriers of the given /48 blocks, so an SRv6
// packet sent along one of them reaches the peer and one sent along any other is lost. The
// decapsulated packet is looked up in table local, where the peer's own address lives.
func peerNetns(t *testing.T, hostNs string, working ...string) string {
	t.Helper()
	ns := hostNs + "p"
	run := func(args ...string) {
		t.Helper()
		if out, err := exec.Command("ip", args...).CombinedOutput(); err != nil {
			t.Fatalf("ip %s: %s", strings.Join(args, " "), out)
		}
	}
	run("netns", "add", ns)
	t.Cleanup(func() { _ = exec.Command("ip", "netns", "del", ns).Run() })
	run("-n", hostNs, "link", "set", "v1", "netns", ns)
	for _, args := range [][]string{
		{"link", "set", "v1", "up"}, {"link", "set", "lo", "up"},
		{"-6", "addr", "add", "2001:db8:ff::2/64", "dev", "v1", "nodad"},
		{"-6", "addr", "add", p2 + "/128", "dev", "lo"},
	} {
		run(append([]string{"-n", ns}, args...)...)
	}
	for _, k := range []string{"net.ipv6.conf.all.forwarding=1", "net.ipv6.conf.all.seg6_enabled=1", "net.ipv6.conf.v1.seg6_enabled=1"} {
		if out, err := exec.Command("ip", "netns", "exec", ns, "sysctl", "-qw", k).CombinedOutput(); err != nil {
			t.Fatalf("sysctl %s: %s", k, out)
		}
	}
	for _, block := range working {
		decap(t, ns, block)
	}
	return ns
}

func decap(t *testing.T, ns, block string) {
	t.Helper()
	if out, err := exec.Command("ip", "-n", ns, "-6", "route", "replace", block, "encap", "seg6local", "action", "End.DT6",
		"table", "local", "dev", "v1").CombinedOutput(); err != nil {
		t.Fatalf("End.DT6 for %s: %s", block, out)
	}
}

// TestProbesMoveTrafficAndReportsCount: two GOOD entries to one peer, one of them broken in the
// fabric. The agent's probes mark the broken one ASSUMED_BAD and the route keeps only the
// working one; when the path is repaired, it comes back. Traffic to the peer is counted by the
// nftables rule and reported with the probe's RTT.
func TestProbesMoveTrafficAndReportsCount(t *testing.T) {
	hostNs := newTestNetns(t)
	peerNs := peerNetns(t, hostNs, "fcbb:bb00:1::/48")
	good, broken := "fcbb:bb00:1:e000::", "fcbb:bb00:2:e000::"
	p := profile.Profile{NIC: "nic1", Version: 1, Peers: []profile.Peer{{Peer: "nic2", Address: new(p2), MinActive: 1,
		Entries: []profile.Entry{
			{ID: "a#srv6", JobID: new("j"), Format: "srv6", Value: new(good), Carriers: []string{good}, Weight: 1, State: "GOOD"},
			{ID: "b#srv6", JobID: new("j"), Format: "srv6", Value: new(broken), Carriers: []string{broken}, Weight: 1, State: "GOOD"},
		}}}}
	fake := newFakeScheduler(t, "tok-nic1", p)

	prog, err := route.NewNetlink(hostNs)
	if err != nil {
		t.Fatal(err)
	}
	defer prog.Close()
	up, err := host.DetectUplink(prog.Handle(), host.Uplink{})
	if err != nil {
		t.Fatal(err)
	}
	cnt, err := counters.NewNFT(hostNs)
	if err != nil {
		netnstest.CannotRun(t, fmt.Sprintf("nftables unavailable: %v", err))
	}
	prb, err := probe.NewICMP(hostNs, prog.Handle(), up.Dev, up.Via)
	if err != nil {
		t.Fatal(err)
	}
	defer prb.Close()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	if testing.Verbose() {
		log = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	a := New(Config{NIC: "nic1", Uplink: up, Wait: 2 * time.Second, ReportInterval: 100 * time.Millisecond,
		ProbeInterval: 100 * time.Millisecond, ProbeTimeout: 200 * time.Millisecond, ProbeLosses: 3},
		newClient(t, fake.srv.URL), prog, cnt, prb, log)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- a.Run(ctx, false) }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("agent run: %v", err)
		}
	}()

	routeTo := func() string {
		out, _ := exec.Command("ip", "-n", hostNs, "-6", "route", "show", p2).CombinedOutput()
		return string(out)
	}
	waitFor(t, "the broken entry marked bad by probes", func() bool {
		return slices.Equal(a.Snapshot().ProbeBad, []string{"b#srv6"})
	})
	if r := routeTo(); strings.Contains(r, broken) || !strings.Contains(r, good) {
		t.Fatalf("after the probes, the route to the peer is:\n%s\nwant only %s", r, good)
	}

	// Traffic along the working entry: counted per peer and reported with the probe's RTT.
	if out, err := exec.Command("ip", "netns", "exec", hostNs, "ping", "-6", "-c", "5", "-i", "0.05", "-W", "1", p2).CombinedOutput(); err != nil {
		t.Fatalf("ping along the working entry: %s", out)
	}
	waitFor(t, "a report counting the ping", func() bool {
		fake.mu.Lock()
		defer fake.mu.Unlock()
		for _, raw := range slices.Backward(fake.reports) {
			var r contract.FlowReport
			if json.Unmarshal(raw, &r) != nil || len(r.Flows) != 1 {
				continue
			}
			f := r.Flows[0]
			return f.FlowID == "a#srv6" && f.Carrier != nil && f.Carrier.String() == good && f.Bytes != "0" && f.RTTUs != nil && *f.RTTUs > 0
		}
		return false
	})

	// The path is repaired: the entry answers again and the multipath route is back.
	decap(t, peerNs, "fcbb:bb00:2::/48")
	waitFor(t, "the repaired entry back in use", func() bool {
		r := routeTo()
		return len(a.Snapshot().ProbeBad) == 0 && strings.Contains(r, broken) && strings.Contains(r, good)
	})
}
