package server

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/openconfig/gnmi/proto/gnmi"
	"weft.io/switch-agent/internal/nstest"
)

const golden = "../../../../controller-app/fabric-plan/src/test/resources/golden/"

// A switch namespace wired to one peer namespace per port, so the ports are real veths.
func wire(t *testing.T, ports []string) (sw string, peers []string, portMap string) {
	sw = nstest.NS(t)
	var pairs []string
	for i, p := range ports {
		peer := nstest.NS(t)
		kernelName := "p" + string(rune('0'+i))
		nstest.Veth(t, sw, kernelName, peer, "x0")
		peers = append(peers, peer)
		pairs = append(pairs, p+"="+kernelName)
	}
	return sw, peers, strings.Join(pairs, ",")
}

func TestSetThenKernelThenGetEqualsIntent(t *testing.T) {
	nstest.Require(t, "nft")
	cases := []struct {
		name   string
		file   string
		ports  []string
		kernel []string // lines `ip -6 route show table all` must contain (read through netlink by iproute2)
	}{
		{"golden leaf", golden + "ls-2x2-leaf1.json", []string{"eth1", "eth2", "eth3"}, []string{
			"fcbb:bb00:1::/48  encap seg6local action End flavors next-csid lblen 32 nflen 16 dev sid0",
			"fcbb:bb00:1:e000::/64  encap seg6local action End.DT6 table 100 dev sid0",
			"fcbb:bb00:e000::/48  encap seg6local action End.DT6 table 100 dev sid0",
			"fd00:ef7:1::1 via fe80::1 dev p0 table 100 proto 210",
		}},
		{"golden spine", golden + "ls-2x2-spine1.json", []string{"eth1", "eth2"}, []string{
			"fcbb:bb00:3::/48  encap seg6local action End flavors next-csid lblen 32 nflen 16 dev sid0",
		}},
		{"rendered 2x2 leaf with two NICs", "../../testdata/ls-2x2/leaf1.json", []string{"eth1", "eth2", "eth3", "eth4"}, []string{
			"fcbb:bb00:1::/48  encap seg6local action End flavors next-csid lblen 32 nflen 16 dev sid0",
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			sw, _, portMap := wire(t, tc.ports)
			in := readIntent(t, tc.file)
			c := serve(t, sw, portMap, in.Target)
			if _, err := c.Set(ctx(t), setRequest(t, in)); err != nil {
				t.Fatalf("Set: %v", err)
			}
			routes := nstest.Run(t, "ip", "-n", sw, "-6", "route", "show", "table", "all")
			for _, want := range tc.kernel {
				if !strings.Contains(routes, want) {
					t.Errorf("kernel lacks %q; has:\n%s", want, routes)
				}
			}
			for _, op := range in.Replace {
				req := setRequest(t, in)
				var path *gnmi.Path
				for _, u := range req.Replace {
					if u.Path.Origin == op.Origin && pathMatches(u.Path, op.Path) {
						path = u.Path
					}
				}
				resp, err := c.Get(ctx(t), &gnmi.GetRequest{Prefix: &gnmi.Path{Target: in.Target}, Path: []*gnmi.Path{path},
					Type: gnmi.GetRequest_CONFIG, Encoding: gnmi.Encoding_JSON_IETF})
				if err != nil {
					t.Fatalf("Get %s: %v", op.Path, err)
				}
				got := resp.Notification[0].Update[0].Val.GetJsonIetfVal()
				if !reflect.DeepEqual(normalise(t, got), normalise(t, op.Value)) {
					t.Errorf("Get %s:\n got  %s\n want %s", op.Path, got, op.Value)
				}
			}
		})
	}
}

func pathMatches(p *gnmi.Path, s string) bool {
	var b strings.Builder
	for _, e := range p.Elem {
		b.WriteString("/" + e.Name)
		for k, v := range e.Key {
			b.WriteString("[" + k + "=" + v + "]")
		}
	}
	return b.String() == s
}

// The lab fails a cable by taking its ports down; the kernel then drops the port's addresses and
// routes (an ECMP route keeps it as a dead next hop). When the port comes up again the agent re-installs
// its running configuration, as a NOS would, without a new Set.
func TestPortBackUpGetsItsAddressesAndRoutesBack(t *testing.T) {
	nstest.Require(t, "nft")
	sw, _, portMap := wire(t, []string{"eth1", "eth2", "eth3"})
	in := readIntent(t, golden+"ls-2x2-leaf1.json")
	c := serve(t, sw, portMap, in.Target)
	if _, err := c.Set(ctx(t), setRequest(t, in)); err != nil {
		t.Fatal(err)
	}
	before := kernelState(t, sw)
	nstest.Run(t, "ip", "-n", sw, "link", "set", "p1", "down")
	routes := nstest.Run(t, "ip", "-n", sw, "-6", "route", "show", "table", "all")
	// The route through p1 alone is gone; the ECMP route keeps p1 as a dead next hop.
	if strings.Contains(routes, "fcbb:bb00:3::/48 via fe80::2 dev p1") || !strings.Contains(routes, "dev p1 weight 1 dead") {
		t.Fatalf("kernel while p1 is down:\n%s", routes)
	}
	if addrs := nstest.Run(t, "ip", "-n", sw, "-6", "addr", "show", "dev", "p1"); strings.Contains(addrs, "fe80::1/64") {
		t.Fatalf("p1 kept its address while down:\n%s", addrs)
	}
	nstest.Run(t, "ip", "-n", sw, "link", "set", "p1", "up")
	deadline := time.Now().Add(5 * time.Second)
	for kernelState(t, sw) != before {
		if time.Now().After(deadline) {
			t.Fatalf("not restored 5 s after p1 came up:\nbefore:\n%s\nnow:\n%s", before, kernelState(t, sw))
		}
		time.Sleep(50 * time.Millisecond)
	}
}
