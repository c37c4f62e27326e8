package model

import (
	"net/netip"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// Tenant VRF tables: a VRF is a routing table plus ip rules (the lab kernel has no VRF driver).
const (
	FirstVRFTable = 100
	LastVRFTable  = 999
)

var tableInDescription = regexp.MustCompile(`\btable (\d+)\b`)

// Validate checks a whole configuration before anything touches the kernel: every reference
// (SID to locator, uA to port, uDT46 to VRF, next hop to port) must resolve, every value must
// have the one shape the kernel form supports. hasPort tells whether a fabric port exists.
func Validate(c Config, hasPort func(string) bool) error {
	locs := map[string]locator{}
	for _, name := range sortedNames(c.Locators) {
		l, err := checkLocator(name, c.Locators[name])
		if err != nil {
			return err
		}
		locs[name] = l
	}
	if len(locs) > 1 {
		return Errorf(Subtree{Kind: KindLocators}.String(), "", "one locator per switch, got %d", len(locs))
	}
	if _, err := VRFTables(c); err != nil {
		return err
	}
	for _, key := range sortedNames(c.SIDs) {
		if err := checkSID(c, locs, key, c.SIDs[key], hasPort); err != nil {
			return err
		}
	}
	for _, name := range sortedNames(c.Interfaces) {
		if err := checkInterface(name, c.Interfaces[name], hasPort); err != nil {
			return err
		}
	}
	for _, name := range sortedNames(c.Instances) {
		if err := checkInstance(name, c.Instances[name], hasPort); err != nil {
			return err
		}
	}
	return nil
}

type locator struct {
	prefix          netip.Addr
	block, node, fn int
}

// LocatorOf parses a (validated) locator.
func LocatorOf(l Locator) (prefix netip.Addr, blockLen, nodeLen, funcLen int) {
	p, _ := netip.ParseAddr(l.Prefix)
	b, _ := strconv.Atoi(l.BlockLen)
	n, _ := strconv.Atoi(l.NodeLen)
	f, _ := strconv.Atoi(l.FuncLen)
	return p, b, n, f
}

func checkLocator(name string, l Locator) (locator, error) {
	where := Subtree{Kind: KindLocators}.String()
	field := func(f string) string { return name + "/" + f }
	p, err := netip.ParseAddr(l.Prefix)
	if err != nil || !p.Is6() || p.Is4In6() {
		return locator{}, Errorf(where, field("prefix"), "%q is not an IPv6 address", l.Prefix)
	}
	nums := map[string]string{"block_len": l.BlockLen, "node_len": l.NodeLen, "func_len": l.FuncLen, "arg_len": l.ArgLen}
	v := map[string]int{}
	for _, f := range []string{"block_len", "node_len", "func_len", "arg_len"} {
		n, err := strconv.Atoi(nums[f])
		if err != nil || n < 0 || n > 128 {
			return locator{}, Errorf(where, field(f), "%q is not a bit count 0..128", nums[f])
		}
		v[f] = n
	}
	// The kernel's NEXT-CSID flavour shifts whole uSIDs: node and function are one uSID each,
	// and a byte-aligned block (lblen and nflen are multiples of 8).
	if v["block_len"]%8 != 0 || v["block_len"] < 8 || v["node_len"]%8 != 0 || v["node_len"] < 8 {
		return locator{}, Errorf(where, field("block_len"), "block_len %d and node_len %d must be multiples of 8",
			v["block_len"], v["node_len"])
	}
	if v["func_len"] != v["node_len"] {
		return locator{}, Errorf(where, field("func_len"), "%d: must equal node_len (%d), a function is one uSID",
			v["func_len"], v["node_len"])
	}
	if v["arg_len"] != 0 {
		return locator{}, Errorf(where, field("arg_len"), "%d: arguments are not supported, only 0", v["arg_len"])
	}
	if v["block_len"]+v["node_len"]+v["func_len"] > 128 {
		return locator{}, Errorf(where, field("block_len"), "block, node and function exceed 128 bits")
	}
	if pfx, _ := p.Prefix(v["block_len"] + v["node_len"]); pfx.Addr() != p {
		return locator{}, Errorf(where, field("prefix"), "%s has bits set beyond block+node (%d bits)",
			l.Prefix, v["block_len"]+v["node_len"])
	}
	if l.Vrf != "default" {
		return locator{}, Errorf(where, field("vrf"), "%q: only \"default\" is supported", l.Vrf)
	}
	return locator{prefix: p, block: v["block_len"], node: v["node_len"], fn: v["func_len"]}, nil
}

func checkSID(c Config, locs map[string]locator, key string, s SID, hasPort func(string) bool) error {
	where := Subtree{Kind: KindSIDs}.String()
	name, pfx, ok := strings.Cut(key, "|")
	if !ok {
		return Errorf(where, key, "key must be <locator>|<prefix>")
	}
	loc, ok := locs[name]
	if !ok {
		return Errorf(where, key, "locator %q is not in SRV6_MY_LOCATORS", name)
	}
	p, err := netip.ParsePrefix(pfx)
	if err != nil || !p.Addr().Is6() || p.Masked() != p {
		return Errorf(where, key, "%q is not an IPv6 prefix without host bits", pfx)
	}
	if lp, _ := p.Addr().Prefix(loc.block + loc.node); lp.Addr() != loc.prefix {
		return Errorf(where, key, "%s is outside locator %s %s/%d", pfx, name, loc.prefix, loc.block+loc.node)
	}
	if s.DecapDscpMode != DscpPipe {
		return Errorf(where, key+"/decap_dscp_mode", "%q: the kernel decapsulates in pipe mode only", s.DecapDscpMode)
	}
	withFn := loc.block + loc.node + loc.fn
	switch s.Action {
	case ActionUN:
		if p.Bits() != loc.block+loc.node {
			return Errorf(where, key, "a uN SID is the locator itself, /%d", loc.block+loc.node)
		}
		if s.Interface != "" || s.Adj != "" || s.DecapVrf != "" {
			return Errorf(where, key, "uN takes no interface, adj or decap_vrf")
		}
	case ActionUA:
		if p.Bits() != withFn {
			return Errorf(where, key, "a uA SID is locator+function, /%d", withFn)
		}
		if s.Interface == "" || !hasPort(s.Interface) {
			return Errorf(where, key+"/interface", "no port %q on this switch", s.Interface)
		}
		if a, err := netip.ParseAddr(s.Adj); err != nil || !a.Is6() {
			return Errorf(where, key+"/adj", "%q is not an IPv6 address", s.Adj)
		}
	case ActionUDT46:
		if p.Bits() != withFn {
			return Errorf(where, key, "a uDT46 SID is locator+function, /%d", withFn)
		}
		if vrf, ok := c.Instances[s.DecapVrf]; !ok || vrf.Config.Type != TypeL3VRF {
			return Errorf(where, key+"/decap_vrf", "%q is not an L3VRF network instance of this switch", s.DecapVrf)
		}
	default:
		return Errorf(where, key+"/action", "%q: one of uN, uA, uDT46", s.Action)
	}
	return nil
}

func checkInterface(name string, i Interface, hasPort func(string) bool) error {
	where := Subtree{Kind: KindInterface, Name: name}.String()
	if name != LoopbackName && !hasPort(name) {
		return Errorf(where, "name", "no port %q on this switch", name)
	}
	if i.Config.Name != name {
		return Errorf(where, "config/name", "%q differs from the key %q", i.Config.Name, name)
	}
	subs := i.Subinterfaces.Subinterface
	if len(subs) != 1 || subs[0].Index != 0 || subs[0].Config.Index != 0 {
		return Errorf(where, "subinterfaces/subinterface", "exactly one subinterface, index 0")
	}
	if subs[0].Config.Enabled != i.Config.Enabled {
		return Errorf(where, "subinterfaces/subinterface[index=0]/config/enabled",
			"must equal config/enabled: a port has one admin state")
	}
	if !subs[0].IPv6.Config.Enabled {
		return Errorf(where, "subinterfaces/subinterface[index=0]/ipv6/config/enabled", "IPv6 cannot be disabled")
	}
	seen := map[string]bool{}
	for _, a := range subs[0].IPv6.Addresses.Address {
		f := "subinterfaces/subinterface[index=0]/ipv6/addresses/address[ip=" + a.IP + "]"
		ip, err := netip.ParseAddr(a.IP)
		if err != nil || !ip.Is6() || ip.Is4In6() {
			return Errorf(where, f+"/ip", "%q is not an IPv6 address", a.IP)
		}
		if a.Config.IP != a.IP {
			return Errorf(where, f+"/config/ip", "%q differs from the key %q", a.Config.IP, a.IP)
		}
		if a.Config.PrefixLength < 1 || a.Config.PrefixLength > 128 {
			return Errorf(where, f+"/config/prefix-length", "%d is not 1..128", a.Config.PrefixLength)
		}
		want := GlobalUnicast
		if ip.IsLinkLocalUnicast() {
			want = LinkLocalUnicast
		}
		if a.Config.Type != want {
			return Errorf(where, f+"/config/type", "%q: %s is %s", a.Config.Type, a.IP, want)
		}
		if name == LoopbackName && a.Config.PrefixLength != 128 {
			return Errorf(where, f+"/config/prefix-length", "a loopback address is a /128")
		}
		if seen[ip.String()] {
			return Errorf(where, f, "listed twice")
		}
		seen[ip.String()] = true
	}
	return nil
}

func checkInstance(name string, n Instance, hasPort func(string) bool) error {
	where := Subtree{Kind: KindInstance, Name: name}.String()
	if n.Config.Name != name {
		return Errorf(where, "config/name", "%q differs from the key %q", n.Config.Name, name)
	}
	if !n.Config.Enabled {
		return Errorf(where, "config/enabled", "a disabled instance is not supported; delete it")
	}
	allowed := map[string]bool{}
	switch {
	case name == DefaultInstance:
		if n.Config.Type != TypeDefault {
			return Errorf(where, "config/type", "%q: DEFAULT is a DEFAULT_INSTANCE", n.Config.Type)
		}
		allowed[ProtoStatic] = true
	case n.Config.Type == TypeL3VRF:
		for _, p := range VRFProtocols {
			allowed[p] = true
		}
	default:
		return Errorf(where, "config/type", "%q: DEFAULT_INSTANCE (named DEFAULT) or L3VRF", n.Config.Type)
	}
	protos := map[string]bool{}
	tableUse := map[string]string{} // LOCAL and MINIMAL share the VRF's table
	for _, p := range n.Protocols.Protocol {
		pf := "protocols/protocol[identifier=" + p.Identifier + "][name=" + p.Name + "]"
		if p.Identifier != ProtoStatic || p.Config.Identifier != ProtoStatic || p.Config.Name != p.Name {
			return Errorf(where, pf+"/config", "identifier must be STATIC and config must repeat the keys")
		}
		if !allowed[p.Name] {
			return Errorf(where, pf+"/name", "%q is not a protocol this instance takes (%s)", p.Name, joinKeys(allowed))
		}
		if protos[p.Name] {
			return Errorf(where, pf, "listed twice")
		}
		protos[p.Name] = true
		seen := map[string]bool{}
		for _, r := range p.StaticRoutes.Static {
			rf := pf + "/static-routes/static[prefix=" + r.Prefix + "]"
			pfx, err := netip.ParsePrefix(r.Prefix)
			if err != nil || !pfx.Addr().Is6() || pfx.Masked() != pfx {
				return Errorf(where, rf+"/prefix", "%q is not an IPv6 prefix without host bits", r.Prefix)
			}
			if r.Config.Prefix != r.Prefix {
				return Errorf(where, rf+"/config/prefix", "%q differs from the key %q", r.Config.Prefix, r.Prefix)
			}
			if seen[r.Prefix] {
				return Errorf(where, rf, "listed twice")
			}
			seen[r.Prefix] = true
			if p.Name == ProtoLocal || p.Name == ProtoMinimal {
				if other, ok := tableUse[r.Prefix]; ok {
					return Errorf(where, rf, "also in %s: LOCAL and MINIMAL share the VRF's table", other)
				}
				tableUse[r.Prefix] = p.Name
			}
			if len(r.NextHops.NextHop) == 0 {
				return Errorf(where, rf+"/next-hops", "no next hop")
			}
			for i, h := range r.NextHops.NextHop {
				hf := rf + "/next-hops/next-hop[index=" + h.Index + "]"
				if h.Index != strconv.Itoa(i) || h.Config.Index != h.Index {
					return Errorf(where, hf+"/index", "next hops are indexed 0, 1, ... in order (member = index)")
				}
				if a, err := netip.ParseAddr(h.Config.NextHop); err != nil || !a.Is6() {
					return Errorf(where, hf+"/config/next-hop", "%q is not an IPv6 address", h.Config.NextHop)
				}
				port := h.InterfaceRef.Config.Interface
				if !hasPort(port) {
					return Errorf(where, hf+"/interface-ref/config/interface", "no port %q on this switch", port)
				}
				if h.InterfaceRef.Config.Subinterface != 0 {
					return Errorf(where, hf+"/interface-ref/config/subinterface", "only subinterface 0")
				}
			}
		}
	}
	return nil
}

// VRFTables maps every L3VRF to its routing table: the "table N" its description names (what
// DeviceIntent writes: the planner's table), else the lowest free table from 100.
func VRFTables(c Config) (map[string]int, error) {
	out := map[string]int{}
	used := map[int]string{}
	var rest []string
	for _, name := range sortedNames(c.Instances) {
		n := c.Instances[name]
		if n.Config.Type != TypeL3VRF {
			continue
		}
		m := tableInDescription.FindStringSubmatch(n.Config.Description)
		if m == nil {
			rest = append(rest, name)
			continue
		}
		t, _ := strconv.Atoi(m[1])
		where := Subtree{Kind: KindInstance, Name: name}.String()
		if t < FirstVRFTable || t > LastVRFTable {
			return nil, Errorf(where, "config/description", "table %d is outside %d..%d", t, FirstVRFTable, LastVRFTable)
		}
		if other, ok := used[t]; ok {
			return nil, Errorf(where, "config/description", "table %d is %s's too", t, other)
		}
		out[name], used[t] = t, name
	}
	next := FirstVRFTable
	for _, name := range rest {
		for used[next] != "" {
			next++
		}
		if next > LastVRFTable {
			return nil, Errorf(Subtree{Kind: KindInstance, Name: name}.String(), "", "no free VRF table")
		}
		out[name], used[next] = next, name
	}
	return out, nil
}

func sortedNames[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func joinKeys(m map[string]bool) string {
	return strings.Join(sortedNames(m), ", ")
}
