package host

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"weft.io/nic-agent/internal/profile"
	"weft.io/nic-agent/internal/route"
	"weft.io/nic-agent/internal/vectors"
)

var up = Uplink{Dev: "eth0", Via: "fe80::1", Address: "fd00:ef7:11::1"}

func srv6(id, state string, weight int, carriers ...string) profile.Entry {
	return profile.Entry{ID: id, JobID: new("j1"), Format: profile.FormatSRv6, Value: new(first(carriers)), Carriers: carriers,
		Weight: weight, State: state}
}

func sport(id, state, value string) profile.Entry {
	return profile.Entry{ID: id, JobID: new("j1"), Format: profile.FormatUDPSport, Value: new(value), Weight: 1, State: state}
}

func first(s []string) string {
	if len(s) == 0 {
		return ""
	}
	return s[0]
}

func peer(minActive int, entries ...profile.Entry) profile.Peer {
	return profile.Peer{Peer: "nic2", Address: new("fd00:ef7:12::2"), MinActive: minActive, Entries: entries}
}

func TestCompileRoutes(t *testing.T) {
	c1, c2, c3 := "fcbb:bb00:11:1:12:e000::", "fcbb:bb00:11:2:12:e000::", "fcbb:bb00:7::"
	tests := []struct {
		name string
		peer profile.Peer
		bad  map[string]bool
		want []route.Nexthop // nil = no route
	}{
		{"one GOOD entry", peer(1, srv6("a", "GOOD", 50000, c1)),
			nil, []route.Nexthop{{Carriers: []string{c1}, Weight: 1}}},
		{"two carriers make an SRH", peer(1, srv6("a", "GOOD", 1, c1, c3)),
			nil, []route.Nexthop{{Carriers: []string{c1, c3}, Weight: 1}}},
		{"weighted GOOD entries make a multipath route", peer(1, srv6("a", "GOOD", 30000, c1), srv6("b", "GOOD", 10000, c2)),
			nil, []route.Nexthop{{Carriers: []string{c1}, Weight: 256}, {Carriers: []string{c2}, Weight: 85}}},
		{"entries on one path add their weights", peer(1, srv6("a", "GOOD", 1, c1), srv6("b", "GOOD", 1, c1), srv6("c", "GOOD", 2, c2)),
			nil, []route.Nexthop{{Carriers: []string{c1}, Weight: 256}, {Carriers: []string{c2}, Weight: 256}}},
		{"DENIED is never used", peer(1, srv6("a", "DENIED", 1, c1), srv6("b", "GOOD", 1, c2)),
			nil, []route.Nexthop{{Carriers: []string{c2}, Weight: 1}}},
		{"only DENIED: no route", peer(1, srv6("a", "DENIED", 1)), nil, nil},
		{"ASSUMED_BAD skipped while a GOOD one is left", peer(1, srv6("a", "ASSUMED_BAD", 1, c1), srv6("b", "GOOD", 1, c2)),
			nil, []route.Nexthop{{Carriers: []string{c2}, Weight: 1}}},
		{"minActive brings ASSUMED_BAD back", peer(2, srv6("a", "ASSUMED_BAD", 1, c1), srv6("b", "GOOD", 1, c2)),
			nil, []route.Nexthop{{Carriers: []string{c2}, Weight: 256}, {Carriers: []string{c1}, Weight: 256}}},
		{"probe-bad entry: traffic moves to the next GOOD one", peer(1, srv6("a", "GOOD", 1, c1), srv6("b", "GOOD", 1, c2)),
			map[string]bool{"a": true}, []route.Nexthop{{Carriers: []string{c2}, Weight: 1}}},
		{"probe-bad but minActive 1 and nothing else: still used", peer(1, srv6("a", "GOOD", 1, c1)),
			map[string]bool{"a": true}, []route.Nexthop{{Carriers: []string{c1}, Weight: 1}}},
		{"UNKNOWN only after ASSUMED_BAD", peer(1, srv6("u", "UNKNOWN", 1, c1), srv6("a", "ASSUMED_BAD", 1, c2)),
			nil, []route.Nexthop{{Carriers: []string{c2}, Weight: 1}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := Compile(profile.Profile{NIC: "nic1", Version: 7, Peers: []profile.Peer{tt.peer}}, up, tt.bad)
			if len(d.Rejected) > 0 {
				t.Fatalf("rejected %v", d.Rejected)
			}
			if tt.want == nil {
				if len(d.Routes) != 0 {
					t.Fatalf("routes = %+v, want none", d.Routes)
				}
				return
			}
			want := route.Route{Dst: "fd00:ef7:12::2/128", Dev: "eth0", Via: "fe80::1", Nexthops: tt.want}
			if len(d.Routes) != 1 || !reflect.DeepEqual(d.Routes[0], want) {
				t.Fatalf("routes = %+v\nwant %+v", d.Routes, want)
			}
			if err := route.Check(d.Routes[0]); err != nil {
				t.Fatalf("compiled route fails the programmer's check: %v", err)
			}
		})
	}
}

func TestCompileRejectsBadEntriesByNameAndAppliesTheRest(t *testing.T) {
	good := srv6("good", "GOOD", 1, "fcbb:bb00:11:1:12:e000::")
	p := profile.Profile{NIC: "nic1", Version: 3, Peers: []profile.Peer{
		peer(1, good,
			profile.Entry{ID: "fmt", Format: "mpls", Value: new("16"), Weight: 1, State: "GOOD"},
			srv6("carrier", "GOOD", 1, "fcbb:bb00:11:1::", "not-an-address"),
			srv6("empty", "GOOD", 1),
			sport("port", "GOOD", "70000"),
			profile.Entry{ID: "state", Format: "srv6", Carriers: []string{"fcbb::"}, Weight: 1, State: "MAYBE"},
			sport("ev", "GOOD", "49920")),
		{Peer: "nic9", MinActive: 1, Entries: []profile.Entry{good}}, // no address
	}}
	d := Compile(p, up, nil)
	want := map[string]string{
		"fmt":     "peers[0].entries[1].format",
		"carrier": "peers[0].entries[2].carriers[1]",
		"empty":   "peers[0].entries[3].carriers",
		"port":    "peers[0].entries[4].value",
		"state":   "peers[0].entries[5].state",
		"":        "peers[1].address",
	}
	if len(d.Rejected) != len(want) {
		t.Fatalf("rejected = %+v, want %d", d.Rejected, len(want))
	}
	for _, r := range d.Rejected {
		if want[r.EntryID()] != r.Field {
			t.Errorf("rejection of %q names field %q, want %q (%s)", r.EntryID(), r.Field, want[r.EntryID()], r.Reason)
		}
		if r.Entry == nil && (r.Peer != "nic9" || !strings.Contains(r.Reason, "nic9")) {
			t.Errorf("peer rejection does not name the peer: %+v", r)
		}
	}
	if len(d.Routes) != 1 || d.Routes[0].Nexthops[0].Carriers[0] != "fcbb:bb00:11:1:12:e000::" {
		t.Fatalf("the good entry was not applied: %+v", d.Routes)
	}
	wantEV := []EVPorts{{Peer: "nic2", Src: "fd00:ef7:11::1", Dst: "fd00:ef7:12::2", Ports: []int{49920},
		Weights: []PortWeight{{Port: 49920, Weight: 1, Slots: 1}}}}
	if !reflect.DeepEqual(d.EV, wantEV) {
		t.Fatalf("ev = %+v, want %+v", d.EV, wantEV)
	}
}

func TestCompileEVPortsHonourStates(t *testing.T) {
	p := profile.Profile{NIC: "nic1", Version: 1, Peers: []profile.Peer{peer(1,
		sport("a", "GOOD", "49920"), sport("b", "DENIED", ""), sport("c", "GOOD", "50176"), sport("d", "ASSUMED_BAD", "50432"))}}
	d := Compile(p, up, map[string]bool{"c": true})
	if len(d.Rejected) != 0 {
		t.Fatalf("rejected %v", d.Rejected)
	}
	if len(d.EV) != 1 || !reflect.DeepEqual(d.EV[0].Ports, []int{49920}) {
		t.Fatalf("ev = %+v, want only 49920 (b DENIED, c probe-bad, d ASSUMED_BAD)", d.EV)
	}
}

// TestCompileEVPortsOfTheProfileVectors: for every profile of contracts/vectors/agent-profiles.json
// that names its EV port lists, the agent publishes exactly those lists (each port repeated by its
// weight), with the weights behind them.
func TestCompileEVPortsOfTheProfileVectors(t *testing.T) {
	eachVectorProfile(t, "EV ports (multipath-weighted-paths should)", func(c vectors.AgentProfileCase) bool {
		return c.EVPorts != nil
	}, func(t *testing.T, c vectors.AgentProfileCase, p profile.Profile) {
		d := Compile(p, portsOf(p), nil)
		if len(d.Rejected) > 0 {
			t.Fatalf("rejected %+v", d.Rejected)
		}
		if len(d.EV) != len(c.EVPorts) {
			t.Fatalf("ev = %+v, want %+v", d.EV, c.EVPorts)
		}
		for i, want := range c.EVPorts {
			got := d.EV[i]
			if got.Peer != want.Peer || !slices.Equal(got.Ports, want.Ports) {
				t.Fatalf("ev[%d] = %s %v, want %s %v", i, got.Peer, got.Ports, want.Peer, want.Ports)
			}
			sum := 0
			for _, w := range got.Weights {
				n := 0
				for _, port := range got.Ports {
					if port == w.Port {
						n++
					}
				}
				if n != w.Slots {
					t.Fatalf("port %d listed %d times, slots %d", w.Port, n, w.Slots)
				}
				sum += w.Weight
			}
			if sum == 0 {
				t.Fatalf("ev[%d] has no weights: %+v", i, got)
			}
		}
	})
}

// TestCompileEVSteeringOfTheProfileVectors: for every profile of contracts/vectors/agent-profiles.json
// that names its EV steering, the agent steers exactly those source ports, each out its port.
func TestCompileEVSteeringOfTheProfileVectors(t *testing.T) {
	eachVectorProfile(t, "EV steering (multi-plane-ports should)", func(c vectors.AgentProfileCase) bool {
		return c.EVSteering != nil
	}, func(t *testing.T, c vectors.AgentProfileCase, p profile.Profile) {
		multi := portsOf(p)
		d := Compile(p, multi, nil)
		addrs := map[string]string{}
		for _, peer := range p.Peers {
			addrs[peer.Peer] = deref(peer.Address)
		}
		var want []route.Steer
		for _, s := range c.EVSteering {
			want = append(want, route.Steer{Peer: addrs[s.Peer], Sport: s.Sport, Table: portTables(multi.Ports)[s.Port].Table})
		}
		byPeer := func(a, b route.Steer) int { return strings.Compare(a.Peer, b.Peer)*65536 + a.Sport - b.Sport }
		got := slices.SortedFunc(slices.Values(d.Steering.Rules), byPeer)
		slices.SortFunc(want, byPeer)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("steering rules = %+v\nwant %+v", got, want)
		}
		for _, table := range d.Steering.Tables {
			if err := route.CheckTable(table); err != nil {
				t.Fatal(err)
			}
		}
	})
}

// eachVectorProfile runs check on the profile of every agent-profiles.json case has selects, and
// fails when none is selected (naming what the vectors should hold).
func eachVectorProfile(t *testing.T, what string, has func(vectors.AgentProfileCase) bool,
	check func(*testing.T, vectors.AgentProfileCase, profile.Profile)) {
	t.Helper()
	cases, err := vectors.AgentProfiles()
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, c := range cases {
		if !has(c) {
			continue
		}
		checked++
		t.Run(c.Name, func(t *testing.T) {
			var p profile.Profile
			if err := json.Unmarshal(c.Profile, &p); err != nil {
				t.Fatal(err)
			}
			check(t, c, p)
		})
	}
	if checked == 0 {
		t.Fatal("no agent-profiles vector names its " + what)
	}
}

// portsOf is the test uplink with one local interface for every port the profile names.
func portsOf(p profile.Profile) Uplink {
	u := up
	u.Ports = map[string]Port{}
	for _, peer := range p.Peers {
		for _, e := range peer.Entries {
			if port := deref(e.Port); port != "" {
				u.Ports[port] = Port{Dev: fmt.Sprintf("eth%d", len(u.Ports)), Via: "fe80::1"}
			}
		}
	}
	return u
}

// TestCompileEVPortsAddWeightsOfEntriesOnOnePort: two shares of one flow that came to share a
// path (and so an entropy value) count as one port with their weights added.
func TestCompileEVPortsAddWeightsOfEntriesOnOnePort(t *testing.T) {
	weighted := func(id, value string, w int) profile.Entry {
		e := sport(id, "GOOD", value)
		e.Weight = w
		return e
	}
	p := profile.Profile{NIC: "nic1", Version: 1, Peers: []profile.Peer{peer(1,
		weighted("f/0.0#ev", "49408", 100000), weighted("f/0.1#ev", "49409", 200000), weighted("f/0.2#ev", "49408", 100000))}}
	d := Compile(p, up, nil)
	want := EVPorts{Peer: "nic2", Src: up.Address, Dst: "fd00:ef7:12::2", Ports: []int{49408, 49409},
		Weights: []PortWeight{{Port: 49408, Weight: 200000, Slots: 1}, {Port: 49409, Weight: 200000, Slots: 1}}}
	if len(d.EV) != 1 || !reflect.DeepEqual(d.EV[0], want) {
		t.Fatalf("ev = %+v, want %+v", d.EV, want)
	}
}

// A NIC with one port per fabric plane: each srv6 entry leaves by the port it names, so its
// carriers reach the leaf of its own plane; a port the agent has no interface for is refused.
func TestCompileRoutesEachEntryOutItsPort(t *testing.T) {
	c1, c2 := "fcbb:bb00:11:1:12:e000::", "fcbb:bb00:21:2:22:e000::"
	multi := Uplink{Dev: "eth0", Via: "fe80::1", Address: "fd00:ef7:11::1",
		Ports: map[string]Port{"srv1-nic1-up1": {Dev: "eth0", Via: "fe80::1"}, "srv1-nic1-up2": {Dev: "eth1", Via: "fe80::2"}}}
	withPort := func(e profile.Entry, port string) profile.Entry {
		e.Port = new(port)
		return e
	}
	tests := []struct {
		name string
		peer profile.Peer
		want route.Route
	}{
		{"second port alone: the route leaves by it", peer(1, withPort(srv6("a", "GOOD", 1, c2), "srv1-nic1-up2")),
			route.Route{Dst: "fd00:ef7:12::2/128", Dev: "eth1", Via: "fe80::2",
				Nexthops: []route.Nexthop{{Carriers: []string{c2}, Weight: 1}}}},
		{"first port named: the same as the uplink", peer(1, withPort(srv6("a", "GOOD", 1, c1), "srv1-nic1-up1")),
			route.Route{Dst: "fd00:ef7:12::2/128", Dev: "eth0", Via: "fe80::1",
				Nexthops: []route.Nexthop{{Carriers: []string{c1}, Weight: 1}}}},
		{"both planes: every next hop names its own port", peer(1, withPort(srv6("a", "GOOD", 3, c1), "srv1-nic1-up1"),
			withPort(srv6("b", "GOOD", 1, c2), "srv1-nic1-up2")),
			route.Route{Dst: "fd00:ef7:12::2/128", Dev: "eth0", Via: "fe80::1", Nexthops: []route.Nexthop{
				{Carriers: []string{c1}, Weight: 256, Dev: "eth0", Via: "fe80::1"},
				{Carriers: []string{c2}, Weight: 85, Dev: "eth1", Via: "fe80::2"}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := Compile(profile.Profile{NIC: "srv1-nic1", Version: 3, Peers: []profile.Peer{tt.peer}}, multi, nil)
			if len(d.Rejected) > 0 {
				t.Fatalf("rejected %v", d.Rejected)
			}
			if len(d.Routes) != 1 || !reflect.DeepEqual(d.Routes[0], tt.want) {
				t.Fatalf("routes = %+v\nwant %+v", d.Routes, tt.want)
			}
			if err := route.Check(d.Routes[0]); err != nil {
				t.Fatal(err)
			}
		})
	}

	t.Run("a port without a local interface is refused, naming it", func(t *testing.T) {
		d := Compile(profile.Profile{NIC: "srv1-nic1", Version: 3, Peers: []profile.Peer{
			peer(1, withPort(srv6("a", "GOOD", 1, c2), "srv1-nic1-up2"))}}, up, nil)
		if len(d.Routes) != 0 || len(d.Rejected) != 1 || d.Rejected[0].Field != "peers[0].entries[0].port" ||
			!strings.Contains(d.Rejected[0].Reason, "srv1-nic1-up2") {
			t.Fatalf("routes %+v, rejected %+v", d.Routes, d.Rejected)
		}
	})
}

// On a multi-plane NIC an EV entry naming a port leaves by it: the kernel cannot tell from the
// packet which plane the planner meant, so a rule sends that source port to the port's table.
func TestCompileSteersEVEntriesOutTheirPort(t *testing.T) {
	multi := Uplink{Dev: "eth0", Via: "fe80::1", Address: "fd00:ef7:11::1",
		Ports: map[string]Port{"srv1-nic1-up1": {Dev: "eth0", Via: "fe80::1"}, "srv1-nic1-up2": {Dev: "eth1", Via: "fe80::2"}}}
	on := func(e profile.Entry, port string) profile.Entry {
		e.Port = new(port)
		return e
	}
	plane2 := route.PortTable{Table: route.FirstSteerTable + 1, Dev: "eth1", Via: "fe80::2"}
	steer := func(sport, table int) route.Steer {
		return route.Steer{Peer: "fd00:ef7:12::2", Sport: sport, Table: table}
	}
	tests := []struct {
		name  string
		peer  profile.Peer
		want  route.Steering
		links []string // each EV weight's link, in entry order
	}{
		{"no port: the main table routes it", peer(1, sport("a", "GOOD", "49920")), route.Steering{}, []string{""}},
		{"second port: a rule to its table", peer(1, sport("a", "GOOD", "49920"), on(sport("b", "GOOD", "50176"), "srv1-nic1-up2")),
			route.Steering{Tables: []route.PortTable{plane2}, Rules: []route.Steer{steer(50176, plane2.Table)}},
			[]string{"", "srv1-nic1-up2"}},
		{"first port named: a rule to its own table", peer(1, on(sport("a", "GOOD", "49920"), "srv1-nic1-up1")),
			route.Steering{Tables: []route.PortTable{{Table: route.FirstSteerTable, Dev: "eth0", Via: "fe80::1"}},
				Rules: []route.Steer{steer(49920, route.FirstSteerTable)}}, []string{"srv1-nic1-up1"}},
		{"two entries on one port and source port: one rule", peer(1, on(sport("a", "GOOD", "50176"), "srv1-nic1-up2"),
			on(sport("b", "GOOD", "50176"), "srv1-nic1-up2")),
			route.Steering{Tables: []route.PortTable{plane2}, Rules: []route.Steer{steer(50176, plane2.Table)}},
			[]string{"srv1-nic1-up2"}},
		{"ASSUMED_BAD not used: no rule", peer(1, sport("a", "GOOD", "49920"), on(sport("b", "ASSUMED_BAD", "50176"), "srv1-nic1-up2")),
			route.Steering{}, []string{""}},
		{"DENIED never: no rule", peer(1, on(sport("b", "DENIED", "50176"), "srv1-nic1-up2")), route.Steering{}, nil},
		{"minActive brings ASSUMED_BAD back with its rule", peer(2, sport("a", "GOOD", "49920"),
			on(sport("b", "ASSUMED_BAD", "50176"), "srv1-nic1-up2")),
			route.Steering{Tables: []route.PortTable{plane2}, Rules: []route.Steer{steer(50176, plane2.Table)}},
			[]string{"", "srv1-nic1-up2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := Compile(profile.Profile{NIC: "srv1-nic1", Version: 3, Peers: []profile.Peer{tt.peer}}, multi, nil)
			if len(d.Rejected) > 0 || len(d.Routes) > 0 {
				t.Fatalf("rejected %v, routes %v", d.Rejected, d.Routes)
			}
			if !reflect.DeepEqual(d.Steering, tt.want) {
				t.Fatalf("steering = %+v\nwant %+v", d.Steering, tt.want)
			}
			for _, r := range d.Steering.Rules {
				if err := route.CheckSteer(r); err != nil {
					t.Fatal(err)
				}
			}
			var links []string
			for _, e := range d.EV {
				for _, w := range e.Weights {
					links = append(links, w.Link)
				}
			}
			if !slices.Equal(links, tt.links) {
				t.Fatalf("EV links = %q, want %q", links, tt.links)
			}
		})
	}

	t.Run("a port without a local interface is refused, naming it", func(t *testing.T) {
		d := Compile(profile.Profile{NIC: "srv1-nic1", Version: 3, Peers: []profile.Peer{
			peer(1, sport("a", "GOOD", "49920"), on(sport("b", "GOOD", "50176"), "srv1-nic1-up2"))}}, up, nil)
		if len(d.EV) != 1 || !slices.Equal(d.EV[0].Ports, []int{49920}) || len(d.Steering.Rules) != 0 ||
			len(d.Rejected) != 1 || d.Rejected[0].Field != "peers[0].entries[1].port" ||
			!strings.Contains(d.Rejected[0].Reason, "srv1-nic1-up2") {
			t.Fatalf("ev %+v, steering %+v, rejected %+v", d.EV, d.Steering, d.Rejected)
		}
	})

	t.Run("one source port cannot leave by two ports", func(t *testing.T) {
		d := Compile(profile.Profile{NIC: "srv1-nic1", Version: 3, Peers: []profile.Peer{
			peer(1, sport("a", "GOOD", "49920"), on(sport("b", "GOOD", "49920"), "srv1-nic1-up2"))}}, multi, nil)
		if len(d.Steering.Rules) != 0 || len(d.Rejected) != 1 || d.Rejected[0].Field != "peers[0].entries[1].port" ||
			!strings.Contains(d.Rejected[0].Reason, "already leaves by the uplink") {
			t.Fatalf("steering %+v, rejected %+v", d.Steering, d.Rejected)
		}
	})
}
