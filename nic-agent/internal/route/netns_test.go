package route

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"weft.io/nic-agent/internal/netnstest"
)

// assertShows fails unless the kernel's own text view holds every wanted line.
func assertShows(t *testing.T, ns string, wants ...string) {
	t.Helper()
	text := showRoutes(t, ns)
	for _, want := range wants {
		if !strings.Contains(text, want) {
			t.Fatalf("ip -6 route show lacks %q:\n%s", want, text)
		}
	}
}

// showRoutes is the kernel's own text view, read independently of List.
func showRoutes(t *testing.T, ns string) string {
	t.Helper()
	out, err := exec.Command("ip", "-n", ns, "-6", "route", "show").CombinedOutput()
	if err != nil {
		t.Fatalf("ip -6 route show: %s", out)
	}
	return string(out)
}

func TestNetlinkInNetns(t *testing.T) {
	ns := newTestNetns(t)
	ctx := context.Background()
	r := openNetlink(t, ns)
	path1 := []string{"fcbb:bb00:1:12:2:e000::"}
	path2 := []string{"fcbb:bb00:1:2:3:4:5:6", "fcbb:bb00:7::"}
	one := Route{Dst: "2001:db8:100::/64", Dev: "v0", Via: "2001:db8:ff::2", Nexthops: []Nexthop{{Carriers: path1, Weight: 1}}}
	firstReplace(t, r, one)
	onLink := Route{Dst: "2001:db8:1::5/128", Dev: "v0", Nexthops: []Nexthop{{Carriers: path1, Weight: 1}}}
	if err := r.Replace(ctx, onLink); err != nil {
		t.Fatal(err)
	}
	// A seg6 route the agent did not program: List and Delete must leave it alone.
	foreign := []string{"-n", ns, "-6", "route", "add", "2001:db8:200::/64", "encap", "seg6", "mode", "encap.red",
		"segs", "fcbb:bb00:9::", "dev", "v0"}
	if out, err := exec.Command("ip", foreign...).CombinedOutput(); err != nil {
		t.Fatalf("adding the foreign route: %s", out)
	}

	assertShows(t, ns,
		"2001:db8:100::/64  encap seg6 mode encap.red segs 1 [ fcbb:bb00:1:12:2:e000:: ] via 2001:db8:ff::2 dev v0 proto 200",
		"2001:db8:1::5  encap seg6 mode encap.red segs 1 [ fcbb:bb00:1:12:2:e000:: ] dev v0 proto 200")
	assertList(t, r, []Route{onLink, one})

	// Replacing moves the destination to the new path in place: still one route for it, and the
	// SRH lists the carriers in the order given (iproute2 prints them first to last).
	two := one
	two.Nexthops = []Nexthop{{Carriers: path2, Weight: 1}}
	if err := r.Replace(ctx, two); err != nil {
		t.Fatal(err)
	}
	text := showRoutes(t, ns)
	if want := "segs 2 [ fcbb:bb00:1:2:3:4:5:6 fcbb:bb00:7:: ] via 2001:db8:ff::2"; !strings.Contains(text, want) {
		t.Fatalf("after replace, ip -6 route show lacks %q:\n%s", want, text)
	}
	if n := strings.Count(text, "2001:db8:100::/64"); n != 1 {
		t.Fatalf("after replace there are %d routes to 2001:db8:100::/64:\n%s", n, text)
	}

	// Several weighted next hops: one multipath route, each next hop with its own encapsulation.
	multi := one
	multi.Nexthops = []Nexthop{{Carriers: path1, Weight: 3}, {Carriers: path2, Weight: 1}}
	if err := r.Replace(ctx, multi); err != nil {
		t.Fatal(err)
	}
	text = showRoutes(t, ns)
	for _, want := range []string{
		"nexthop  encap seg6 mode encap.red segs 1 [ fcbb:bb00:1:12:2:e000:: ] via 2001:db8:ff::2 dev v0 weight 3",
		"nexthop  encap seg6 mode encap.red segs 2 [ fcbb:bb00:1:2:3:4:5:6 fcbb:bb00:7:: ] via 2001:db8:ff::2 dev v0 weight 1",
	} {
		if !strings.Contains(text, want) {
			t.Fatalf("multipath: ip -6 route show lacks %q:\n%s", want, text)
		}
	}
	assertList(t, r, []Route{onLink, multi})

	if err := r.Delete(ctx, "2001:db8:1::5/128"); err != nil {
		t.Fatal(err)
	}
	if err := r.Delete(ctx, "2001:db8:1::5/128"); !errors.Is(err, ErrNoRoute) {
		t.Fatalf("second delete: %v, want ErrNoRoute", err)
	}
	if err := r.Delete(ctx, "2001:db8:200::/64"); !errors.Is(err, ErrNoRoute) {
		t.Fatalf("deleting the foreign route: %v, want ErrNoRoute", err)
	}
	assertList(t, r, []Route{multi})
	if text := showRoutes(t, ns); !strings.Contains(text, "2001:db8:200::/64") {
		t.Fatalf("the foreign route is gone:\n%s", text)
	}
}

func TestNetlinkRejectsBadInputNamingTheField(t *testing.T) {
	good := []Nexthop{{Carriers: []string{"fcbb:bb00:1::"}, Weight: 1}}
	tests := []struct {
		name  string
		r     Route
		field string
	}{
		{"dst not a prefix", Route{Dst: "2001:db8::1", Dev: "v0", Nexthops: good}, "dst"},
		{"dst IPv4", Route{Dst: "10.0.0.0/8", Dev: "v0", Nexthops: good}, "dst"},
		{"dst host bits", Route{Dst: "2001:db8::1/64", Dev: "v0", Nexthops: good}, "dst"},
		{"no next hop", Route{Dst: "2001:db8::/64", Dev: "v0"}, "nexthops"},
		{"no carriers", Route{Dst: "2001:db8::/64", Dev: "v0", Nexthops: []Nexthop{{Weight: 1}}}, "nexthops[0].carriers"},
		{"bad carrier", Route{Dst: "2001:db8::/64", Dev: "v0", Nexthops: []Nexthop{{Carriers: []string{"fcbb::", "nope"}}}}, "nexthops[0].carriers[1]"},
		{"weight zero in multipath", Route{Dst: "2001:db8::/64", Dev: "v0",
			Nexthops: []Nexthop{good[0], {Carriers: []string{"fcbb::"}, Weight: 0}}}, "nexthops[1].weight"},
		{"weight too large", Route{Dst: "2001:db8::/64", Dev: "v0",
			Nexthops: []Nexthop{good[0], {Carriers: []string{"fcbb::"}, Weight: 257}}}, "nexthops[1].weight"},
		{"empty dev", Route{Dst: "2001:db8::/64", Nexthops: good}, "dev"},
		{"dev too long", Route{Dst: "2001:db8::/64", Dev: "a-very-long-ifname", Nexthops: good}, "dev"},
		{"via IPv4", Route{Dst: "2001:db8::/64", Dev: "v0", Via: "10.0.0.1", Nexthops: good}, "via"},
		{"via with zone", Route{Dst: "2001:db8::/64", Dev: "v0", Via: "fe80::1%v0", Nexthops: good}, "via"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Check(tt.r)
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("error = %v, want ErrInvalid", err)
			}
			if !strings.HasPrefix(err.Error(), tt.field+":") {
				t.Fatalf("error %q does not start with the field name %q", err, tt.field)
			}
		})
	}
}

func TestNetlinkKernelRejection(t *testing.T) {
	ns := newTestNetns(t)
	r, err := NewNetlink(ns)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	// Valid input the kernel refuses: the gateway is not on any connected network.
	err = r.Replace(context.Background(), Route{Dst: "2001:db8:100::/64", Dev: "v0", Via: "2001:db8:ee::1",
		Nexthops: []Nexthop{{Carriers: []string{"fcbb:bb00:1::"}, Weight: 1}}})
	if err == nil || !strings.Contains(err.Error(), "2001:db8:100::/64") {
		t.Fatalf("error = %v, want one naming the destination", err)
	}
	assertList(t, r, nil)
}

func assertList(t *testing.T, r *Netlink, want []Route) {
	t.Helper()
	got, err := r.List(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("List = %+v\nwant   %+v", got, want)
	}
	for i := range got {
		if !Equal(got[i], want[i]) {
			t.Fatalf("List[%d] = %+v\nwant      %+v", i, got[i], want[i])
		}
	}
}

func newTestNetns(t *testing.T) string {
	t.Helper()
	return netnstest.New(t, "weft-rt")
}

// A NIC with one port per fabric plane: one multipath route whose next hops leave by different
// interfaces, each with its own gateway, read back in the same form.
func TestNetlinkNexthopsOnTwoPorts(t *testing.T) {
	ns := netnstest.New(t, "weft-rt2",
		[]string{"link", "add", "w0", "type", "veth", "peer", "name", "w1"},
		[]string{"link", "set", "w0", "up"},
		[]string{"link", "set", "w1", "up"},
		[]string{"-6", "addr", "add", "2001:db8:fe::1/64", "dev", "w0", "nodad"})
	ctx := context.Background()
	r := openNetlink(t, ns)
	plane1 := []string{"fcbb:bb00:1:12:2:e000::"}
	plane2 := []string{"fcbb:bb00:21:32:22:e000::"}
	both := Route{Dst: "2001:db8:100::/64", Dev: "v0", Via: "2001:db8:ff::2", Nexthops: []Nexthop{
		{Carriers: plane1, Weight: 2, Dev: "v0", Via: "2001:db8:ff::2"},
		{Carriers: plane2, Weight: 1, Dev: "w0", Via: "2001:db8:fe::2"}}}
	firstReplace(t, r, both)
	assertShows(t, ns,
		"nexthop  encap seg6 mode encap.red segs 1 [ fcbb:bb00:1:12:2:e000:: ] via 2001:db8:ff::2 dev v0 weight 2",
		"nexthop  encap seg6 mode encap.red segs 1 [ fcbb:bb00:21:32:22:e000:: ] via 2001:db8:fe::2 dev w0 weight 1")
	assertList(t, r, []Route{both})

	// The second port alone: the route itself leaves by it.
	second := Route{Dst: "2001:db8:100::/64", Dev: "w0", Via: "2001:db8:fe::2", Nexthops: []Nexthop{{Carriers: plane2, Weight: 1}}}
	if err := r.Replace(ctx, second); err != nil {
		t.Fatal(err)
	}
	assertShows(t, ns, "segs 1 [ fcbb:bb00:21:32:22:e000:: ] via 2001:db8:fe::2 dev w0 proto 200")
	assertList(t, r, []Route{second})
}

// openNetlink is a programmer for the namespace, closed when t ends.
func openNetlink(t *testing.T, ns string) *Netlink {
	t.Helper()
	r, err := NewNetlink(ns)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Close)
	return r
}

// firstReplace installs a test's first route, skipping the test when the kernel has no SRv6 encap.
func firstReplace(t *testing.T, r *Netlink, route Route) {
	t.Helper()
	err := r.Replace(context.Background(), route)
	if errors.Is(err, ErrUnsupported) {
		netnstest.CannotRun(t, fmt.Sprintf("kernel lacks SRv6 encap: %v", err))
	}
	if err != nil {
		t.Fatal(err)
	}
}
