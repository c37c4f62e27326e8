// Package host turns a profile into what this host must hold (routes, entropy values) and
// brings the kernel there with as few changes as possible.
package host

import (
	"fmt"
	"maps"
	"net/netip"
	"slices"
	"strconv"
	"strings"

	"weft.io/nic-agent/internal/contract"
	"weft.io/nic-agent/internal/ev"
	"weft.io/nic-agent/internal/profile"
	"weft.io/nic-agent/internal/route"
)

// Uplink is how this host leaves towards the fabric: every SRv6 route goes out this way, except
// the entries that name a port of a multi-plane NIC (Ports).
type Uplink struct {
	Dev     string // e.g. eth0
	Via     string // the leaf's address (often link-local); empty when on-link
	Address string // this NIC's own IPv6 address (the source in the EV file)
	// Ports maps the fabric link id of each port of a NIC with one port per plane to the local
	// interface and gateway of that port. An srv6 entry naming a port leaves by it; one naming a
	// port not in the map is rejected (sent out another port it would reach the wrong plane).
	Ports map[string]Port
}

// Port is one local port of a multi-plane NIC: its interface and its leaf's address.
type Port struct {
	Dev string
	Via string
}

// Active is an entry the host uses: traffic to Peer is sent with it.
type Active struct {
	Peer     string   `json:"peer"`
	PeerAddr string   `json:"peerAddr"`
	ID       string   `json:"id"`
	JobID    string   `json:"jobId,omitempty"`
	Format   string   `json:"format"`
	Carriers []string `json:"carriers,omitempty"` // srv6
	EV       int      `json:"ev,omitempty"`       // udp-sport
	Weight   int      `json:"weight"`
	// Port is the fabric link the entry leaves by (multi-plane NICs), Dev and Via its local
	// interface and gateway; all empty for the uplink.
	Port string `json:"port,omitempty"`
	Dev  string `json:"dev,omitempty"`
	Via  string `json:"via,omitempty"`
	// Fallback is true when the entry is not GOOD (or the agent's probes found it bad) and is used
	// only because minActive asks for more entries than there are good ones.
	Fallback bool `json:"fallback,omitempty"`
}

// EVPorts is the entropy values (UDP source ports) for traffic from this NIC to one peer.
type EVPorts struct {
	Peer string `json:"peer"`
	Src  string `json:"src"`
	Dst  string `json:"dst"`
	// Ports is the EV file's list: each port repeated by its slots, in ev.Spray's order.
	Ports []int `json:"ports"`
	// Weights is each distinct port once, in entry order, with the weights behind Ports.
	Weights []PortWeight `json:"weights,omitempty"`
}

// PortWeight is one source port's weight: the sum of its entries' weights (Mbit/s) and the slots
// ev.Slots gives it in the port list. On a multi-plane NIC, Link is the fabric link id of the NIC
// port its packets leave by (Dev that port's interface); both empty for the uplink.
type PortWeight struct {
	Port   int    `json:"port"`
	Weight int    `json:"weight"`
	Slots  int    `json:"slots"`
	Link   string `json:"link,omitempty"`
	Dev    string `json:"dev,omitempty"`
}

// Desired is everything one profile version asks of this host.
type Desired struct {
	Version int64         `json:"version"`
	Routes  []route.Route `json:"routes"` // sorted by destination
	EV      []EVPorts     `json:"ev"`     // sorted by peer
	Active  []Active      `json:"active"`
	// Steering sends the UDP source ports of EV entries naming a port out that port.
	Steering route.Steering       `json:"steering,omitzero"`
	Rejected []contract.Rejection `json:"rejected,omitempty"`
}

// Compile decides the routes and entropy values for profile p. bad holds the ids of entries the
// agent's own probes found failing: they are treated as ASSUMED_BAD. A bad entry or peer is
// rejected (and listed), everything else is used.
//
// Per peer and format: GOOD entries are used; when fewer than minActive are, the ASSUMED_BAD
// (or probe-failed), then UNKNOWN ones are added until minActive is reached; DENIED never is
// (OCP MRC semantics). Several srv6 entries make one multipath route weighted by their weights.
// A used udp-sport entry naming a port gets a steering rule sending that source port to the peer
// out the port; two entries giving one source port different ways out cannot both hold, so the
// later is rejected.
func Compile(p profile.Profile, up Uplink, bad map[string]bool) Desired {
	d := Desired{Version: p.Version}
	tables := portTables(up.Ports)
	seen := map[string]int{}
	for i, peer := range p.Peers {
		field := fmt.Sprintf("peers[%d]", i)
		if peer.Peer == "" {
			d.Rejected = append(d.Rejected, contract.Rejection{Field: field + ".peer", Reason: "empty peer id"})
			continue
		}
		if j, dup := seen[peer.Peer]; dup {
			d.Rejected = append(d.Rejected, contract.Rejection{Peer: peer.Peer, Field: field + ".peer",
				Reason: fmt.Sprintf("peer %q already listed at peers[%d]", peer.Peer, j)})
			continue
		}
		seen[peer.Peer] = i
		addr, err := netip.ParseAddr(deref(peer.Address))
		if err != nil || !addr.Is6() || addr.Is4In6() || addr.Zone() != "" {
			d.Rejected = append(d.Rejected, contract.Rejection{Peer: peer.Peer, Field: field + ".address",
				Reason: fmt.Sprintf("peer %q has no IPv6 address (%q)", peer.Peer, deref(peer.Address))})
			continue
		}
		var srv6, sports []candidate
		sportLink := map[int]string{} // the port each source port to this peer leaves by
		for j, e := range peer.Entries {
			efield := fmt.Sprintf("%s.entries[%d]", field, j)
			c, rej := check(peer, addr.String(), e, efield, up.Ports, bad)
			if rej != nil {
				d.Rejected = append(d.Rejected, *rej)
				continue
			}
			if c.Format == profile.FormatSRv6 {
				srv6 = append(srv6, c)
				continue
			}
			if c.rank != rankDenied {
				if link, ok := sportLink[c.EV]; ok && link != c.Port {
					d.Rejected = append(d.Rejected, contract.Rejection{Peer: peer.Peer, Entry: new(e.ID), Field: efield + ".port",
						Reason: fmt.Sprintf("UDP source port %d to this peer already leaves by %s", c.EV, portName(link))})
					continue
				}
				sportLink[c.EV] = c.Port
			}
			sports = append(sports, c)
		}
		if use := choose(srv6, peer.MinActive); len(use) > 0 {
			d.Routes = append(d.Routes, routeOf(addr, up, use))
			for _, c := range use {
				d.Active = append(d.Active, c.Active)
			}
		}
		if use := choose(sports, peer.MinActive); len(use) > 0 {
			for _, c := range use {
				d.Active = append(d.Active, c.Active)
			}
			d.EV = append(d.EV, evPortsOf(peer.Peer, up.Address, addr.String(), use))
			d.Steering.Rules = append(d.Steering.Rules, steersOf(addr.String(), tables, use)...)
		}
	}
	for _, link := range slices.Sorted(maps.Keys(tables)) {
		t := tables[link]
		if slices.ContainsFunc(d.Steering.Rules, func(s route.Steer) bool { return s.Table == t.Table }) {
			d.Steering.Tables = append(d.Steering.Tables, t)
		}
	}
	slices.SortFunc(d.Routes, func(a, b route.Route) int { return strings.Compare(a.Dst, b.Dst) })
	slices.SortFunc(d.EV, func(a, b EVPorts) int { return strings.Compare(a.Peer, b.Peer) })
	return d
}

// candidate is a valid entry and how eager the agent is to use it (lower is better).
type candidate struct {
	Active
	rank int
}

const (
	rankGood = iota
	rankProbedBad
	rankAssumedBad
	rankUnknown
	rankDenied
)

func check(peer profile.Peer, addr string, e profile.Entry, field string, ports map[string]Port,
	bad map[string]bool) (candidate, *contract.Rejection) {
	reject := func(f, why string) (candidate, *contract.Rejection) {
		return candidate{}, &contract.Rejection{Peer: peer.Peer, Entry: new(e.ID), Field: field + f, Reason: why}
	}
	if e.ID == "" {
		return reject(".id", "empty entry id")
	}
	c := candidate{Active: Active{Peer: peer.Peer, PeerAddr: addr, ID: e.ID, JobID: deref(e.JobID), Format: e.Format,
		Weight: max(1, e.Weight)}}
	switch e.State {
	case profile.Good:
		c.rank = rankGood
		if bad[e.ID] {
			c.rank = rankProbedBad
		}
	case profile.AssumedBad:
		c.rank = rankAssumedBad
	case profile.Unknown:
		c.rank = rankUnknown
	case profile.Denied:
		c.rank = rankDenied
	default:
		return reject(".state", fmt.Sprintf("unknown state %q (GOOD, ASSUMED_BAD, DENIED or UNKNOWN)", e.State))
	}
	if c.rank == rankDenied {
		return c, nil // DENIED entries need no valid value: they are never used
	}
	switch e.Format {
	case profile.FormatSRv6:
		if len(e.Carriers) == 0 {
			return reject(".carriers", "no carriers")
		}
		for k, s := range e.Carriers {
			a, err := netip.ParseAddr(s)
			if err != nil || !a.Is6() || a.Is4In6() || a.Zone() != "" {
				return reject(fmt.Sprintf(".carriers[%d]", k), fmt.Sprintf("%q is not an IPv6 address", s))
			}
			c.Carriers = append(c.Carriers, a.String())
		}
	case profile.FormatUDPSport:
		v, err := strconv.Atoi(deref(e.Value))
		if err != nil || v < 0 || v > 65535 {
			return reject(".value", fmt.Sprintf("%q is not a UDP port (0..65535)", deref(e.Value)))
		}
		c.EV = v
	default:
		return reject(".format", fmt.Sprintf("unknown format %q (srv6 or udp-sport)", e.Format))
	}
	if port := deref(e.Port); port != "" {
		// The path starts at the port's leaf: only that port reaches it (the planes do not meet),
		// whether the path is named by carriers or by the entropy value the plane's switches hash.
		p, ok := ports[port]
		if !ok {
			return reject(".port", fmt.Sprintf("no local interface for port %q (set --port %s=DEV[,VIA])", port, port))
		}
		c.Port, c.Dev, c.Via = port, p.Dev, p.Via
	}
	return c, nil
}

// choose returns the entries to use: the GOOD ones, topped up to minActive from the next best.
func choose(cs []candidate, minActive int) []candidate {
	usable := slices.DeleteFunc(slices.Clone(cs), func(c candidate) bool { return c.rank == rankDenied })
	slices.SortStableFunc(usable, func(a, b candidate) int { return a.rank - b.rank })
	n := 0
	for n < len(usable) && usable[n].rank == rankGood {
		n++
	}
	n = min(len(usable), max(n, minActive))
	out := usable[:n]
	for i := range out {
		out[i].Fallback = out[i].rank != rankGood
	}
	return out
}

// routeOf makes the route to one peer: one next hop per distinct carrier list (entries on the
// same path add their weights; the kernel refuses two identical next hops), weights scaled to
// the kernel's 1..256. Each next hop leaves by its entry's port (multi-plane NICs) or the uplink;
// the route holds the first one's interface, and the next hops their own only when they differ.
func routeOf(addr netip.Addr, up Uplink, use []candidate) route.Route {
	var nhs []route.Nexthop
	for _, c := range use {
		i := slices.IndexFunc(nhs, func(n route.Nexthop) bool { return slices.Equal(n.Carriers, c.Carriers) })
		if i < 0 {
			dev, via := up.Dev, up.Via
			if c.Dev != "" {
				dev, via = c.Dev, c.Via
			}
			nhs = append(nhs, route.Nexthop{Carriers: c.Carriers, Dev: dev, Via: via})
			i = len(nhs) - 1
		}
		nhs[i].Weight += c.Weight
	}
	dev, via := nhs[0].Dev, nhs[0].Via
	mixed := slices.ContainsFunc(nhs, func(n route.Nexthop) bool { return n.Dev != dev || n.Via != via })
	if !mixed {
		for i := range nhs {
			nhs[i].Dev, nhs[i].Via = "", ""
		}
	}
	top := 0
	for _, n := range nhs {
		top = max(top, n.Weight)
	}
	for i := range nhs {
		if len(nhs) == 1 {
			nhs[i].Weight = 1
			continue
		}
		nhs[i].Weight = max(1, min(route.MaxWeight, int((int64(nhs[i].Weight)*route.MaxWeight+int64(top)/2)/int64(top))))
	}
	return route.Route{Dst: netip.PrefixFrom(addr, 128).String(), Dev: dev, Via: via, Nexthops: nhs}
}

// evPortsOf makes the EV ports to one peer: entries with the same port add their weights (two
// shares of a multipath flow may come to share a path), and each port is repeated in the list in
// proportion to its weight, so a stack spraying evenly over the list honours the weights.
func evPortsOf(peer, src, dst string, use []candidate) EVPorts {
	var ws []PortWeight
	for _, c := range use {
		i := slices.IndexFunc(ws, func(w PortWeight) bool { return w.Port == c.EV })
		if i < 0 {
			ws = append(ws, PortWeight{Port: c.EV, Link: c.Port, Dev: c.Dev})
			i = len(ws) - 1
		}
		ws[i].Weight += c.Weight
	}
	ports, weights := make([]int, len(ws)), make([]int, len(ws))
	for i, w := range ws {
		ports[i], weights[i] = w.Port, w.Weight
	}
	slots := ev.Slots(weights)
	for i := range ws {
		ws[i].Slots = slots[i]
	}
	return EVPorts{Peer: peer, Src: src, Dst: dst, Ports: ev.Spray(ports, slots), Weights: ws}
}

// portTables numbers the port tables: one per configured port, by the sorted link ids, so the
// numbers stay the same across restarts with the same --port flags.
func portTables(ports map[string]Port) map[string]route.PortTable {
	out := make(map[string]route.PortTable, len(ports))
	for i, link := range slices.Sorted(maps.Keys(ports)) {
		out[link] = route.PortTable{Table: route.FirstSteerTable + i, Dev: ports[link].Dev, Via: ports[link].Via}
	}
	return out
}

// steersOf makes the rules for the used udp-sport entries that name a port, one per source port.
func steersOf(peerAddr string, tables map[string]route.PortTable, use []candidate) []route.Steer {
	var out []route.Steer
	for _, c := range use {
		if c.Port == "" {
			continue
		}
		s := route.Steer{Peer: peerAddr, Sport: c.EV, Table: tables[c.Port].Table}
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

func portName(link string) string {
	if link == "" {
		return "the uplink"
	}
	return "port " + link
}

// deref reads an optional profile field: absent is "", as scheduler-api leaves it out when empty.
func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
