package agent

import (
	"encoding/json"
	"fmt"
	"math"
	"net"
	"net/netip"
	"os/exec"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/vishvananda/netns"

	"weft.io/nic-agent/internal/netnstest"
	"weft.io/nic-agent/internal/profile"
	"weft.io/nic-agent/internal/vectors"
)

// spreadFlows is how many UDP flows (distinct source ports) the spreading test sends. The kernel
// picks a path per flow, so the measured share of a path with weight w is a binomial proportion:
// its standard deviation is sqrt(w(1-w)/n) <= 1.1 % for 2,000 flows, and spreadTolerance is
// about four of those.
const (
	spreadFlows     = 2000
	spreadTolerance = 0.045
)

// spreadProfile is the multipath case of the shared agent-profile vectors: one 400G flow of a
// multipath job as scheduler-api serves it, one srv6 (and one EV) entry per path, weighted 4:3:1
// by each path's share of the demand.
func spreadProfile(t *testing.T) profile.Profile {
	t.Helper()
	body, err := vectors.AgentProfile("multipath-weighted-paths")
	if err != nil {
		t.Fatal(err)
	}
	var p profile.Profile
	if err := json.Unmarshal(body, &p); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestWeightedSpreadingInNetns follows a weighted multipath profile with the real agent, then
// sends many flows to the peer from the namespace and counts, with nftables counters on the
// receiving end of the uplink, how many left on each path (by the outer destination, the carrier).
// The kernel hashes each flow onto a next hop (L4 hash: net.ipv6.fib_multipath_hash_policy = 1),
// so the counts must follow the weights.
func TestWeightedSpreadingInNetns(t *testing.T) {
	ns := newTestNetns(t)
	if _, err := exec.LookPath("nft"); err != nil {
		netnstest.CannotRun(t, "nftables `nft` is not installed")
	}
	p := spreadProfile(t)
	peer := p.Peers[0]
	type path struct {
		carrier string
		weight  int
	}
	var paths []path
	total := 0
	for _, e := range peer.Entries {
		if e.Format == profile.FormatSRv6 {
			paths = append(paths, path{e.Carriers[0], e.Weight})
			total += e.Weight
		}
	}
	if len(paths) < 2 {
		t.Fatalf("the multipath vector has %d srv6 entries", len(paths))
	}
	mac, err := exec.Command("ip", "netns", "exec", ns, "cat", "/sys/class/net/v1/address").Output()
	if err != nil {
		t.Fatal(err)
	}
	nft := "table netdev weft_spread {\n"
	for i := range paths {
		nft += fmt.Sprintf("  counter path%d { }\n", i)
	}
	nft += "  chain in { type filter hook ingress device v1 priority 0;\n"
	for i, pa := range paths {
		nft += fmt.Sprintf("    ip6 daddr %s counter name path%d\n", pa.carrier, i)
	}
	nft += "  }\n}\n"
	for _, c := range [][]string{
		{"ip", "netns", "exec", ns, "sysctl", "-qw", "net.ipv6.fib_multipath_hash_policy=1"},
		// The gateway is v1's end of the pair: a fixed neighbour, so every packet leaves v0 at once.
		{"ip", "-n", ns, "-6", "neigh", "replace", "2001:db8:ff::2", "lladdr", strings.TrimSpace(string(mac)),
			"dev", "v0", "nud", "permanent"},
	} {
		if out, err := exec.Command(c[0], c[1:]...).CombinedOutput(); err != nil {
			t.Fatalf("%s: %s", strings.Join(c, " "), out)
		}
	}
	load := exec.Command("ip", "netns", "exec", ns, "nft", "-f", "-")
	load.Stdin = strings.NewReader(nft)
	if out, err := load.CombinedOutput(); err != nil {
		t.Fatalf("nft -f: %s\n%s", out, nft)
	}

	fake := newFakeScheduler(t, "tok-"+p.NIC, p)
	ag := startAgent(t, ns, fake.srv.URL, t.TempDir())
	waitFor(t, "the profile applied", func() bool { return ag.a.Snapshot().Version == p.Version })
	routes := kernelRoutes(t, ns)
	for _, pa := range paths {
		if !strings.Contains(routes, pa.carrier) {
			t.Fatalf("kernel route to %s lacks the path over %s:\n%s", *peer.Address, pa.carrier, routes)
		}
	}

	if err := sendFlows(ns, *peer.Address, spreadFlows); err != nil {
		t.Fatal(err)
	}

	counted := 0
	got := make([]int, len(paths))
	for i := range paths {
		got[i] = nftPackets(t, ns, fmt.Sprintf("path%d", i))
		counted += got[i]
	}
	if counted != spreadFlows {
		t.Fatalf("counted %d packets on the paths, sent %d (one per flow):\n%s", counted, spreadFlows, routes)
	}
	for i, pa := range paths {
		want := float64(pa.weight) / float64(total)
		share := float64(got[i]) / float64(counted)
		t.Logf("path %s: weight %.3f, measured %.3f (%d of %d flows)", pa.carrier, want, share, got[i], counted)
		if math.Abs(share-want) > spreadTolerance {
			t.Errorf("path %s carried %.3f of the flows, its weight is %.3f (tolerance %.3f)", pa.carrier, share,
				want, spreadTolerance)
		}
	}
}

// sendFlows sends one UDP datagram from each of n source ports to peer, from inside ns. Each
// socket is connected, so the kernel looks its route up (and hashes its ports) once per flow.
func sendFlows(ns, peer string, n int) error {
	errc := make(chan error, 1)
	go func() {
		// The thread stays in ns and is dropped when this goroutine ends locked.
		runtime.LockOSThread()
		h, err := netns.GetFromName(ns)
		if err != nil {
			errc <- err
			return
		}
		defer h.Close()
		if err := netns.Set(h); err != nil {
			errc <- err
			return
		}
		src := netip.MustParseAddr("2001:db8:ff::1")
		dst := net.UDPAddrFromAddrPort(netip.AddrPortFrom(netip.MustParseAddr(peer), 4791))
		for i := 0; i < n; i++ {
			c, err := net.DialUDP("udp6", net.UDPAddrFromAddrPort(netip.AddrPortFrom(src, uint16(20000+i))), dst)
			if err != nil {
				errc <- fmt.Errorf("flow %d: %w", i, err)
				return
			}
			_, err = c.Write([]byte("weft"))
			c.Close()
			if err != nil {
				errc <- fmt.Errorf("flow %d: %w", i, err)
				return
			}
		}
		errc <- nil
	}()
	return <-errc
}

var nftPacketsRe = regexp.MustCompile(`packets (\d+)`)

func nftPackets(t *testing.T, ns, counter string) int {
	t.Helper()
	out, err := exec.Command("ip", "netns", "exec", ns, "nft", "list", "counter", "netdev", "weft_spread", counter).
		CombinedOutput()
	if err != nil {
		t.Fatalf("nft list counter %s: %s", counter, out)
	}
	m := nftPacketsRe.FindSubmatch(out)
	if m == nil {
		t.Fatalf("no packet count in %q", out)
	}
	n, _ := strconv.Atoi(string(m[1]))
	return n
}
