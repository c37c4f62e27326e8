package agent

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/vishvananda/netns"

	"weft.io/nic-agent/internal/host"
	"weft.io/nic-agent/internal/profile"
)

// A NIC with one port per plane: v0 (plane 1, the uplink) and w0 (plane 2). Static neighbours
// for both gateways let packets leave without neighbour discovery, so the interfaces' counters
// count exactly the test's packets.
func newTwoPortNetns(t *testing.T) string {
	t.Helper()
	ns := newTestNetns(t)
	for _, args := range [][]string{
		{"link", "add", "w0", "type", "veth", "peer", "name", "w1"},
		{"link", "set", "w0", "up"},
		{"link", "set", "w1", "up"},
		{"-6", "addr", "add", "2001:db8:fe::1/64", "dev", "w0", "nodad"},
		{"-6", "neigh", "replace", "2001:db8:ff::2", "lladdr", "02:00:00:00:ff:02", "dev", "v0", "nud", "permanent"},
		{"-6", "neigh", "replace", "2001:db8:fe::2", "lladdr", "02:00:00:00:fe:02", "dev", "w0", "nud", "permanent"},
	} {
		if out, err := exec.Command("ip", append([]string{"-n", ns}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("ip -n %s %s: %s", ns, strings.Join(args, " "), out)
		}
	}
	return ns
}

var twoPorts = map[string]host.Port{"nic1-up1": {Dev: "v0", Via: "2001:db8:ff::2"}, "nic1-up2": {Dev: "w0", Via: "2001:db8:fe::2"}}

// evProfile gives nic2 two entropy values: 49920 on the uplink's plane and 50176 on plane 2 in
// state plane2State.
func evProfile(version int64, plane2State string) profile.Profile {
	return profile.Profile{NIC: "nic1", Version: version, Peers: []profile.Peer{{Peer: "nic2", Address: new(p2), MinActive: 1,
		Entries: []profile.Entry{
			{ID: "f1#ev", JobID: new("j1"), Format: "udp-sport", Value: new("49920"), Weight: 100, State: "GOOD", Port: new("nic1-up1")},
			{ID: "f1#ev2", JobID: new("j1"), Format: "udp-sport", Value: new("50176"), Weight: 100, State: plane2State,
				Port: new("nic1-up2")},
		}}}}
}

// TestAgentSteersEVEntriesOutTheirPort: UDP traffic with an EV entry's source port leaves by the
// entry's port (counted on the interfaces), the rule survives a restart untouched and goes when
// the entry stops being used.
func TestAgentSteersEVEntriesOutTheirPort(t *testing.T) {
	ns := newTwoPortNetns(t)
	dir := t.TempDir()
	fake := newFakeScheduler(t, "tok-nic1", evProfile(1, "GOOD"))
	ag := startAgentWithPorts(t, ns, fake.srv.URL, dir, twoPorts)
	waitFor(t, "version 1 applied", func() bool { return ag.a.Snapshot().Version == 1 })
	parent := t

	t.Run("each source port leaves by its entry's port", func(t *testing.T) {
		rules := ipText(t, ns, "-6", "rule", "show")
		for _, want := range []string{"to " + p2 + " ipproto udp sport 50176 lookup 1464205313 proto 200",
			"to " + p2 + " ipproto udp sport 49920 lookup 1464205312 proto 200"} {
			if !strings.Contains(rules, want) {
				t.Errorf("ip -6 rule show lacks %q:\n%s", want, rules)
			}
		}
		if got := sentBy(t, ns, 50176); got != "w0" {
			t.Errorf("sport 50176 left by %s, want w0 (plane 2)", got)
		}
		if got := sentBy(t, ns, 49920); got != "v0" {
			t.Errorf("sport 49920 left by %s, want v0 (plane 1)", got)
		}
		if got := sentBy(t, ns, 40000); got != "v0" {
			t.Errorf("sport 40000 (no entry) left by %s, want v0 (the main table)", got)
		}
		ev, err := os.ReadFile(filepath.Join(dir, "ev"))
		if err != nil || string(ev) != "2001:db8:ff::1,"+p2+"=49920,50176\n" {
			t.Errorf("ev file = %q, %v", ev, err)
		}
		s := ag.a.Snapshot()
		if len(s.Applied.EV) != 1 || fmt.Sprint(s.Applied.EV[0].Weights) != "[{49920 100 1 nic1-up1 v0} {50176 100 1 nic1-up2 w0}]" {
			t.Errorf("status EV = %+v, want each port's link and dev", s.Applied.EV)
		}
	})

	t.Run("restart from the state file: no rule or table touched", func(t *testing.T) {
		ag.stop()
		before := ipText(t, ns, "-6", "rule", "show")
		ag2 := startAgentWithPorts(parent, ns, fake.srv.URL, dir, twoPorts)
		waitFor(t, "version 1 resumed", func() bool { return ag2.a.Snapshot().Version == 1 })
		waitFor(t, "connected", func() bool { return ag2.a.Snapshot().State == StateConnected })
		if ch := ag2.a.Snapshot().LastChanges; ch.Replaced != 0 || ch.Deleted != 0 || ch.Kept != 4 {
			t.Errorf("restart changes = %+v, want 4 kept (2 rules, 2 tables)", ch)
		}
		if after := ipText(t, ns, "-6", "rule", "show"); after != before {
			t.Errorf("rules changed over the restart:\nbefore %s\nafter  %s", before, after)
		}
		ag = ag2
	})

	v := int64(1)
	for _, state := range []string{"ASSUMED_BAD", "DENIED"} {
		t.Run(state+" plane-2 entry: its rule and table go", func(t *testing.T) {
			v++
			fake.set(evProfile(v, state))
			waitFor(t, fmt.Sprintf("version %d applied", v), func() bool { return ag.a.Snapshot().Version == v })
			if rules := ipText(t, ns, "-6", "rule", "show"); strings.Contains(rules, "50176") || !strings.Contains(rules, "49920") {
				t.Errorf("rules after %s:\n%s", state, rules)
			}
			if table := ipText(t, ns, "-6", "route", "show", "table", "1464205313"); table != "" {
				t.Errorf("plane 2's table still holds %q", table)
			}
			if got := sentBy(t, ns, 50176); got != "v0" {
				t.Errorf("sport 50176 left by %s, want v0 once its entry is %s", got, state)
			}
		})
		v++
		fake.set(evProfile(v, "GOOD"))
		waitFor(t, "plane 2 back", func() bool { return ag.a.Snapshot().Version == v })
		if got := sentBy(t, ns, 50176); got != "w0" {
			t.Errorf("sport 50176 left by %s, want w0 once its entry is GOOD again", got)
		}
	}
}

func ipText(t *testing.T, ns string, args ...string) string {
	t.Helper()
	out, err := exec.Command("ip", append([]string{"-n", ns}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("ip %s: %s", strings.Join(args, " "), out)
	}
	return string(out)
}

// sentBy sends packets UDP datagrams from source port sport to nic2 inside ns and returns the one
// interface whose transmit counter grew by at least that many ("" or "v0+w0" otherwise).
func sentBy(t *testing.T, ns string, sport int) string {
	t.Helper()
	const packets = 20
	before := map[string]int{"v0": txPackets(t, ns, "v0"), "w0": txPackets(t, ns, "w0")}
	sendUDP(t, ns, sport, packets)
	var grew []string
	for _, dev := range []string{"v0", "w0"} {
		if txPackets(t, ns, dev)-before[dev] >= packets {
			grew = append(grew, dev)
		}
	}
	return strings.Join(grew, "+")
}

func sendUDP(t *testing.T, ns string, sport, packets int) {
	t.Helper()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	orig, err := netns.Get()
	if err != nil {
		t.Fatal(err)
	}
	defer orig.Close()
	target, err := netns.GetFromName(ns)
	if err != nil {
		t.Fatal(err)
	}
	defer target.Close()
	if err := netns.Set(target); err != nil {
		t.Fatal(err)
	}
	conn, derr := net.DialUDP("udp6", &net.UDPAddr{Port: sport}, &net.UDPAddr{IP: net.ParseIP(p2), Port: 4791})
	if err := netns.Set(orig); err != nil {
		runtime.Goexit() // this thread is in the wrong namespace: never hand it back
	}
	if derr != nil {
		t.Fatal(derr)
	}
	defer conn.Close()
	for range packets {
		if _, err := conn.Write([]byte("weft-ev")); err != nil {
			t.Fatal(err)
		}
	}
}

// txPackets reads an interface's transmit counter inside ns from its sysfs (through `ip -s`).
func txPackets(t *testing.T, ns, dev string) int {
	t.Helper()
	fields := strings.Fields(ipText(t, ns, "-s", "-o", "link", "show", "dev", dev))
	for i, f := range fields {
		if f == "TX:" {
			// "TX: bytes packets errors ..." then the values after the header "\\".
			for j := i; j < len(fields); j++ {
				if fields[j] == "\\" && j+2 < len(fields) {
					n, err := strconv.Atoi(fields[j+2])
					if err == nil {
						return n
					}
				}
			}
		}
	}
	t.Fatalf("no TX packets for %s in %q", dev, fields)
	return 0
}
