package route

import (
	"context"
	"errors"
	"os/exec"
	"reflect"
	"strings"
	"testing"

	"weft.io/nic-agent/internal/netnstest"
)

// The steering round trip in a fresh namespace: a port table and a rule are programmed, read back
// by ListSteering and by `ip` itself, and removed; rules and tables that are not the agent's
// (another priority, protocol or table) are neither listed nor touched.
func TestNetlinkSteeringInNetns(t *testing.T) {
	ns := netnstest.New(t, "weft-st",
		[]string{"link", "add", "w0", "type", "veth", "peer", "name", "w1"},
		[]string{"link", "set", "w0", "up"},
		[]string{"link", "set", "w1", "up"},
		[]string{"-6", "addr", "add", "2001:db8:fe::1/64", "dev", "w0", "nodad"},
		// Someone else's: the same match at another priority, and a rule of another protocol.
		[]string{"-6", "rule", "add", "pref", "111", "to", "2001:db8:2::2/128", "ipproto", "udp", "sport", "50176",
			"lookup", "1464205313"},
		[]string{"-6", "rule", "add", "pref", "110", "to", "2001:db8:2::2/128", "ipproto", "udp", "sport", "50177",
			"lookup", "1464205313", "proto", "static"},
		[]string{"-6", "route", "add", "default", "via", "2001:db8:ff::2", "dev", "v0", "table", "1464205314"})
	ctx := context.Background()
	r := openNetlink(t, ns)
	table := PortTable{Table: FirstSteerTable + 1, Dev: "w0", Via: "2001:db8:fe::2"}
	steer := Steer{Peer: "2001:db8:2::2", Sport: 50176, Table: table.Table}
	if err := r.ReplaceTable(ctx, table); err != nil {
		t.Fatal(err)
	}
	if err := r.AddSteer(ctx, steer); err != nil {
		t.Fatal(err)
	}
	if err := r.AddSteer(ctx, steer); err != nil {
		t.Fatalf("adding a rule the kernel holds: %v", err)
	}
	assertSteering(t, r, Steering{Tables: []PortTable{table}, Rules: []Steer{steer}})
	rules := ipText6(t, ns, "rule", "show")
	if want := "110:\tfrom all to 2001:db8:2::2 ipproto udp sport 50176 lookup 1464205313 proto 200"; !strings.Contains(rules, want) {
		t.Fatalf("ip -6 rule show lacks %q:\n%s", want, rules)
	}
	if want := "default via 2001:db8:fe::2 dev w0 proto 200"; !strings.Contains(ipText6(t, ns, "route", "show", "table", "1464205313"), want) {
		t.Fatalf("port table lacks %q", want)
	}
	// The kernel routes a UDP packet with that source port out w0, any other out the main table.
	if got := routeGet(t, ns, "50176"); !strings.Contains(got, "dev w0") {
		t.Fatalf("sport 50176 routed %q, want out w0", got)
	}
	if got := routeGet(t, ns, "49920"); strings.Contains(got, "dev w0") {
		t.Fatalf("sport 49920 routed %q, want not out w0", got)
	}

	// A moved port: the table is replaced in place.
	moved := PortTable{Table: table.Table, Dev: "v0", Via: "2001:db8:ff::2"}
	if err := r.ReplaceTable(ctx, moved); err != nil {
		t.Fatal(err)
	}
	assertSteering(t, r, Steering{Tables: []PortTable{moved}, Rules: []Steer{steer}})

	if err := r.DeleteSteer(ctx, steer); err != nil {
		t.Fatal(err)
	}
	if err := r.DeleteSteer(ctx, steer); !errors.Is(err, ErrNoRoute) {
		t.Fatalf("deleting a missing rule: %v, want ErrNoRoute", err)
	}
	if err := r.DeleteTable(ctx, table.Table); err != nil {
		t.Fatal(err)
	}
	assertSteering(t, r, Steering{})
	rules = ipText6(t, ns, "rule", "show")
	for _, foreign := range []string{"111:\tfrom all to 2001:db8:2::2 ipproto udp sport 50176", "sport 50177"} {
		if !strings.Contains(rules, foreign) {
			t.Fatalf("a rule that is not the agent's is gone (%q):\n%s", foreign, rules)
		}
	}
	if !strings.Contains(ipText6(t, ns, "route", "show", "table", "1464205314"), "default via 2001:db8:ff::2") {
		t.Fatal("a route the agent did not make, in its table range, is gone")
	}
}

func TestCheckSteerNamesTheField(t *testing.T) {
	tests := []struct {
		name  string
		err   error
		field string
	}{
		{"peer not IPv6", CheckSteer(Steer{Peer: "10.0.0.1", Sport: 1, Table: FirstSteerTable}), "peer"},
		{"sport too large", CheckSteer(Steer{Peer: "2001:db8::1", Sport: 65536, Table: FirstSteerTable}), "sport"},
		{"table not the agent's", CheckSteer(Steer{Peer: "2001:db8::1", Sport: 1, Table: 254}), "table"},
		{"table without a dev", CheckTable(PortTable{Table: FirstSteerTable}), "dev"},
		{"table via IPv4", CheckTable(PortTable{Table: FirstSteerTable, Dev: "w0", Via: "10.0.0.1"}), "via"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !errors.Is(tt.err, ErrInvalid) || !strings.HasPrefix(tt.err.Error(), tt.field+":") {
				t.Fatalf("error = %v, want ErrInvalid naming %q", tt.err, tt.field)
			}
		})
	}
}

func assertSteering(t *testing.T, r *Netlink, want Steering) {
	t.Helper()
	got, err := r.ListSteering(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("ListSteering = %+v\nwant %+v", got, want)
	}
}

func ipText6(t *testing.T, ns string, args ...string) string {
	t.Helper()
	out, err := exec.Command("ip", append([]string{"-n", ns, "-6"}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("ip -6 %s: %s", strings.Join(args, " "), out)
	}
	return string(out)
}

// routeGet asks the kernel how it routes a UDP packet from sport to the test's peer (the main
// table of the test namespace has no route there: "unreachable").
func routeGet(t *testing.T, ns, sport string) string {
	t.Helper()
	out, _ := exec.Command("ip", "-n", ns, "-6", "route", "get", "2001:db8:2::2", "ipproto", "udp", "sport", sport).CombinedOutput()
	return string(out)
}
