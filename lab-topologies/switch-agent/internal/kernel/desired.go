package kernel

import (
	"fmt"
	"net/netip"
	"sort"
	"strings"

	"weft.io/switch-agent/internal/model"
)

// Route protocols tag the routes the agent owns, so reading back tells a LOCAL route from a
// MINIMAL one in the same VRF table, and never touches routes of the kernel or other daemons.
const (
	protoStatic  = 4   // RTPROT_STATIC: DEFAULT instance static routes and every SID
	protoLocal   = 210 // tenant VRF, LOCAL
	protoMinimal = 211 // tenant VRF, MINIMAL
	protoEV      = 212 // EV tables
	tableMain    = 254
)

// EV tables and rules, as the lab has them (EvScript): table 2000 + (stage-1)*256 + r.
const (
	evTableBase        = 2000
	evRulePref         = 900
	vrfRulePref        = 1000 // + (table - 100)
	fabricVRFRulePref  = 1100
	lastVRFRulePref    = vrfRulePref + model.LastVRFTable - model.FirstVRFTable
	nftTable           = "weft_ev"
	evStages           = 2
	evMaxMembersPerKey = 256
)

func evTable(stage, r int) int   { return evTableBase + (stage-1)*256 + r }
func evMark(stage, r int) uint32 { return uint32(stage<<16 | r) }

type hop struct {
	gw  netip.Addr
	dev string
}

// kRoute is one route as the kernel holds it. seg is nil for a plain (possibly multipath) route.
type kRoute struct {
	where string // the intent path it comes from, for error messages
	table int
	dst   netip.Prefix
	proto int
	hops  []hop
	seg   *segLocal
}

type segLocal struct {
	action       string // End, End.X, End.DT6
	table        int
	nh6          netip.Addr
	oif          string
	dev          string
	lblen, nflen int // 0: no NEXT-CSID flavour
}

type kRule struct {
	where string
	pref  int
	iif   string
	mark  uint32
	table int
}

type kAddr struct {
	where  string
	prefix netip.Prefix
}

type desired struct {
	up     map[string]bool    // link -> admin up
	addrs  map[string][]kAddr // link -> addresses Weft owns
	routes []kRoute
	rules  []kRule
	nft    string // "" when no EV stage routes
}

// derive turns a validated configuration into the kernel objects that implement it.
func (k *Kernel) derive(c model.Config) (desired, error) {
	d := desired{up: map[string]bool{}, addrs: map[string][]kAddr{}}
	dev := func(port string) string {
		n, _ := k.ports.Kernel(port)
		return n
	}
	for _, name := range sorted(c.Interfaces) {
		i := c.Interfaces[name]
		link := "lo"
		if name != model.LoopbackName {
			link = dev(name)
			d.up[link] = i.Config.Enabled
		}
		where := model.Subtree{Kind: model.KindInterface, Name: name}.String()
		d.addrs[link] = []kAddr{}
		for _, a := range i.Subinterfaces.Subinterface[0].IPv6.Addresses.Address {
			ip, _ := netip.ParseAddr(a.IP)
			d.addrs[link] = append(d.addrs[link], kAddr{where: where, prefix: netip.PrefixFrom(ip, a.Config.PrefixLength)})
		}
	}
	tables, err := model.VRFTables(c)
	if err != nil {
		return d, err
	}
	sidsWhere := model.Subtree{Kind: model.KindSIDs}.String()
	for _, name := range sorted(c.Locators) {
		_, block, node, fn := model.LocatorOf(c.Locators[name])
		for _, key := range sorted(c.SIDs) {
			s := c.SIDs[key]
			locName, pfx, _ := strings.Cut(key, "|")
			if locName != name {
				continue
			}
			p := netip.MustParsePrefix(pfx)
			w := sidsWhere + ": " + key
			// The function as the active uSID right after the switch's uN was shifted out:
			// <block>:<fn>::/(block+fn) in the switch's own table (see the lab README).
			local := netip.PrefixFrom(withBits(blockOf(p.Addr(), block), block, fn, bits(p.Addr(), block+node, fn)), block+fn)
			switch s.Action {
			case model.ActionUN:
				d.routes = append(d.routes, kRoute{where: w, table: tableMain, dst: p, proto: protoStatic,
					seg: &segLocal{action: "End", dev: Anchor, lblen: block, nflen: node}})
			case model.ActionUDT46:
				t := tables[s.DecapVrf]
				seg := &segLocal{action: "End.DT6", table: t, dev: Anchor}
				d.routes = append(d.routes,
					kRoute{where: w, table: tableMain, dst: p, proto: protoStatic, seg: seg},
					kRoute{where: w, table: tableMain, dst: local, proto: protoStatic, seg: seg})
			case model.ActionUA:
				port := dev(s.Interface)
				d.routes = append(d.routes, kRoute{where: w, table: tableMain, dst: local, proto: protoStatic,
					seg: &segLocal{action: "End.X", nh6: netip.MustParseAddr(s.Adj), oif: port, dev: port, lblen: block, nflen: node}})
			}
		}
	}
	nicPorts := map[string]bool{}
	firstTable, firstVRF := 0, ""
	for _, name := range sorted(c.Instances) {
		n := c.Instances[name]
		base := model.Subtree{Kind: model.KindInstance, Name: name}.String()
		table := tableMain
		if n.Config.Type == model.TypeL3VRF {
			table = tables[name]
			if firstTable == 0 || table < firstTable {
				firstTable, firstVRF = table, name
			}
		}
		for _, p := range n.Protocols.Protocol {
			proto := protoStatic
			switch p.Name {
			case model.ProtoLocal:
				proto = protoLocal
			case model.ProtoMinimal:
				proto = protoMinimal
			case model.ProtoEVStage1, model.ProtoEVStage2:
				continue // below, first tenant only
			}
			for _, r := range p.StaticRoutes.Static {
				hops := hopsOf(r, dev)
				if p.Name == model.ProtoLocal {
					for _, h := range hops {
						nicPorts[h.dev] = true
					}
				}
				d.routes = append(d.routes, kRoute{where: base + ": static[prefix=" + r.Prefix + "]", table: table,
					dst: netip.MustParsePrefix(r.Prefix), proto: proto, hops: hops})
			}
		}
	}
	for _, name := range sorted(c.Instances) {
		n := c.Instances[name]
		if n.Config.Type != model.TypeL3VRF {
			continue
		}
		base := model.Subtree{Kind: model.KindInstance, Name: name}.String()
		for _, port := range sortedSet(nicPorts) {
			d.rules = append(d.rules, kRule{where: base, pref: vrfRulePref + tables[name] - model.FirstVRFTable,
				iif: port, table: tables[name]})
		}
	}
	if firstVRF != "" {
		k.deriveEV(&d, c.Instances[firstVRF], firstTable, dev, nicPorts, c)
	}
	return d, nil
}

// deriveEV renders the first tenant's EV routes like the lab's EvScript: per stage, L tables
// (L = lcm of member counts, at most 256), table r holding member r mod n of every route, an
// fwmark rule per table, nftables marking UDP by hop limit and EV byte; then every fabric port
// looks up the tenant table (plain packets on the wire carry no VRF tag).
func (k *Kernel) deriveEV(d *desired, vrf model.Instance, table int, dev func(string) string, nicPorts map[string]bool,
	c model.Config) {
	base := model.Subtree{Kind: model.KindInstance, Name: vrf.Name}.String()
	var nft strings.Builder
	for stage := 1; stage <= evStages; stage++ {
		name := model.ProtoEVStage1
		if stage == 2 {
			name = model.ProtoEVStage2
		}
		var routes []model.Static
		for _, p := range vrf.Protocols.Protocol {
			if p.Name == name {
				routes = p.StaticRoutes.Static
			}
		}
		if len(routes) == 0 {
			continue
		}
		l := 1
		for _, r := range routes {
			l = lcm(l, len(r.NextHops.NextHop))
			if l > evMaxMembersPerKey {
				l = evMaxMembersPerKey
				break
			}
		}
		for r := 0; r < l; r++ {
			t := evTable(stage, r)
			for _, s := range routes {
				hops := hopsOf(s, dev)
				d.routes = append(d.routes, kRoute{where: base + ": " + name + " static[prefix=" + s.Prefix + "]",
					table: t, dst: netip.MustParsePrefix(s.Prefix), proto: protoEV, hops: []hop{hops[r%len(hops)]}})
			}
			d.rules = append(d.rules, kRule{where: base + ": " + name, pref: evRulePref, mark: evMark(stage, r), table: t})
		}
		mask := "0xff00"
		if stage == 2 {
			mask = "0x00ff"
		}
		fmt.Fprintf(&nft, "    ip6 hoplimit %d meta mark set udp sport & %s map { ", 65-stage, mask)
		for b := 0; b < 256; b++ {
			key := b
			if stage == 1 {
				key = b << 8
			}
			if b > 0 {
				nft.WriteString(", ")
			}
			fmt.Fprintf(&nft, "%d : 0x%x", key, evMark(stage, b%l))
		}
		nft.WriteString(" }\n")
	}
	if nft.Len() > 0 {
		d.nft = "table ip6 " + nftTable + " {\n  chain pre {\n" +
			"    type filter hook prerouting priority mangle; policy accept;\n" + nft.String() + "  }\n}\n"
	}
	for _, port := range sorted(c.Interfaces) {
		if port == model.LoopbackName || nicPorts[dev(port)] {
			continue
		}
		d.rules = append(d.rules, kRule{where: base, pref: fabricVRFRulePref, iif: dev(port), table: table})
	}
}

func hopsOf(r model.Static, dev func(string) string) []hop {
	out := make([]hop, 0, len(r.NextHops.NextHop))
	for _, h := range r.NextHops.NextHop {
		out = append(out, hop{gw: netip.MustParseAddr(h.Config.NextHop), dev: dev(h.InterfaceRef.Config.Interface)})
	}
	return out
}

// bits reads n bits of a starting at bit off (0 = most significant).
func bits(a netip.Addr, off, n int) uint64 {
	b := a.As16()
	var v uint64
	for i := 0; i < n; i++ {
		bit := off + i
		v = v<<1 | uint64(b[bit/8]>>(7-bit%8)&1)
	}
	return v
}

// withBits writes the n low bits of v into a at bit off.
func withBits(a netip.Addr, off, n int, v uint64) netip.Addr {
	b := a.As16()
	for i := 0; i < n; i++ {
		bit := off + i
		mask := byte(1) << (7 - bit%8)
		if v>>(n-1-i)&1 == 1 {
			b[bit/8] |= mask
		} else {
			b[bit/8] &^= mask
		}
	}
	return netip.AddrFrom16(b)
}

func blockOf(a netip.Addr, block int) netip.Addr {
	p, _ := a.Prefix(block)
	return p.Addr()
}

func lcm(a, b int) int {
	g, x := a, b
	for x != 0 {
		g, x = x, g%x
	}
	return a / g * b
}

func sorted[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func sortedSet(m map[string]bool) []string { return sorted(m) }
