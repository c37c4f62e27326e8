package kernel

import (
	"fmt"
	"net/netip"
	"sort"
	"strconv"

	"github.com/vishvananda/netlink"
	"github.com/vishvananda/netlink/nl"
	"weft.io/switch-agent/internal/model"
)

// Read answers what the kernel holds, in the intent's shapes: links and addresses, seg6local
// routes decoded back into locator and SIDs, static routes by table and protocol. Only the
// labels the kernel has no place for (locator and VRF names, VRF descriptions) come from the
// last successful Apply.
func (k *Kernel) Read() (model.Config, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	c := model.Config{Locators: map[string]model.Locator{}, SIDs: map[string]model.SID{},
		Interfaces: map[string]model.Interface{}, Instances: map[string]model.Instance{}}
	names, err := k.linkNames()
	if err != nil {
		return c, err
	}
	if err := k.readInterfaces(&c); err != nil {
		return c, err
	}
	routes, err := k.listRoutes()
	if err != nil {
		return c, err
	}
	flavors, err := csidFlavors(k.ns)
	if err != nil {
		return c, err
	}
	k.readSIDs(&c, routes, flavors, names)
	k.readInstances(&c, routes, names)
	orderLikeRunning(&c, k.running)
	return c, nil
}

func (k *Kernel) readInterfaces(c *model.Config) error {
	links, err := k.h.LinkList()
	if err != nil {
		return fmt.Errorf("links: %w", err)
	}
	for _, l := range links {
		name := l.Attrs().Name
		fabric := model.LoopbackName
		if name != "lo" {
			f, ok := k.ports.Fabric(name)
			if !ok {
				continue
			}
			fabric = f
		}
		addrs, err := k.h.AddrList(l, netlink.FAMILY_V6)
		if err != nil {
			return fmt.Errorf("addresses of %s: %w", name, err)
		}
		var out []model.Address
		for _, a := range addrs {
			if !ownedAddr(name, a) {
				continue
			}
			ip, _ := netip.AddrFromSlice(a.IP)
			ip = ip.Unmap()
			ones, _ := a.Mask.Size()
			typ := model.GlobalUnicast
			if ip.IsLinkLocalUnicast() {
				typ = model.LinkLocalUnicast
			}
			out = append(out, model.Address{IP: ip.String(),
				Config: model.AddressConfig{IP: ip.String(), PrefixLength: ones, Type: typ}})
		}
		sort.Slice(out, func(i, j int) bool { return out[i].IP < out[j].IP })
		up := l.Attrs().Flags&(1<<0) != 0 // net.FlagUp
		c.Interfaces[fabric] = model.NewInterface(fabric, up || name == "lo", out)
	}
	return nil
}

func (k *Kernel) vrfName(table int) string {
	for name, v := range k.labels.vrfs {
		if v.table == table {
			return name
		}
	}
	return "table-" + strconv.Itoa(table)
}

func (k *Kernel) readSIDs(c *model.Config, routes []netlink.Route, flavors map[routeKey]flavor, names map[int]string) {
	type sl struct {
		dst netip.Prefix
		e   *netlink.SEG6LocalEncap
		f   flavor
	}
	var segs []sl
	for _, r := range routes {
		if r.Table != tableMain || r.Dst == nil || r.Encap == nil || r.Encap.Type() != nl.LWTUNNEL_ENCAP_SEG6_LOCAL {
			continue
		}
		e, ok := r.Encap.(*netlink.SEG6LocalEncap)
		if !ok {
			continue
		}
		dst := prefixOf(r.Dst)
		segs = append(segs, sl{dst, e, flavors[routeKey{tableMain, dst}]})
	}
	// The locator is the uN: End with NEXT-CSID, its length block+node.
	var loc netip.Prefix
	var block, node int
	for _, s := range segs {
		if s.e.Action == nl.SEG6_LOCAL_ACTION_END && s.f.nextCSID && s.dst.Bits() == s.f.lblen+s.f.nflen {
			loc, block, node = s.dst, s.f.lblen, s.f.nflen
			break
		}
	}
	if !loc.IsValid() {
		return
	}
	name := k.labels.locator
	c.Locators[name] = model.Locator{Prefix: loc.Addr().String(), BlockLen: strconv.Itoa(block),
		NodeLen: strconv.Itoa(node), FuncLen: strconv.Itoa(node), ArgLen: "0", Vrf: "default"}
	c.SIDs[name+"|"+loc.String()] = model.SID{Action: model.ActionUN, DecapDscpMode: model.DscpPipe}
	fn := node
	inLocator := func(p netip.Prefix) bool {
		lp, _ := p.Addr().Prefix(block + node)
		return lp.Addr() == loc.Addr()
	}
	blockAddr := blockOf(loc.Addr(), block)
	isLocalForm := func(p netip.Prefix) bool {
		bp, _ := p.Addr().Prefix(block)
		return p.Bits() == block+fn && bp.Addr() == blockAddr
	}
	// locator + function, from the local form <block>:<fn>::/(block+fn)
	global := func(p netip.Prefix) netip.Prefix {
		return netip.PrefixFrom(withBits(loc.Addr(), block+node, fn, bits(p.Addr(), block, fn)), block+node+fn)
	}
	for _, s := range segs {
		switch {
		case s.e.Action == nl.SEG6_LOCAL_ACTION_END_DT6 && s.dst.Bits() == block+node+fn && inLocator(s.dst):
			c.SIDs[name+"|"+s.dst.String()] = model.SID{Action: model.ActionUDT46,
				DecapVrf: k.vrfName(s.e.Table), DecapDscpMode: model.DscpPipe}
		case s.e.Action == nl.SEG6_LOCAL_ACTION_END_X && s.f.nextCSID && isLocalForm(s.dst):
			port, _ := k.ports.Fabric(names[s.e.Oif])
			adj, _ := netip.AddrFromSlice(s.e.In6Addr)
			c.SIDs[name+"|"+global(s.dst).String()] = model.SID{Action: model.ActionUA, Interface: port,
				Adj: adj.Unmap().String(), DecapDscpMode: model.DscpPipe}
		}
	}
}

func (k *Kernel) hopsOfRoute(r netlink.Route, names map[int]string) []model.Hop {
	var out []model.Hop
	add := func(gw []byte, idx int) {
		ip, _ := netip.AddrFromSlice(gw)
		port, _ := k.ports.Fabric(names[idx])
		out = append(out, model.Hop{Gateway: ip.Unmap().String(), Port: port})
	}
	if len(r.MultiPath) > 0 {
		for _, h := range r.MultiPath {
			add(h.Gw, h.LinkIndex)
		}
	} else if r.Gw != nil {
		add(r.Gw, r.LinkIndex)
	}
	return out
}

func (k *Kernel) readInstances(c *model.Config, routes []netlink.Route, names map[int]string) {
	byTable := map[int]map[int][]model.Static{} // table -> proto -> routes
	ev := map[int]map[netip.Prefix]map[int]model.Hop{}
	for _, r := range routes {
		if r.Dst == nil || !ownedRoute(r) || r.Encap != nil {
			continue
		}
		dst := prefixOf(r.Dst)
		hops := k.hopsOfRoute(r, names)
		if len(hops) == 0 {
			continue
		}
		if r.Table >= evTableBase {
			stage, idx := (r.Table-evTableBase)/256+1, (r.Table-evTableBase)%256
			if ev[stage] == nil {
				ev[stage] = map[netip.Prefix]map[int]model.Hop{}
			}
			if ev[stage][dst] == nil {
				ev[stage][dst] = map[int]model.Hop{}
			}
			ev[stage][dst][idx] = hops[0]
			continue
		}
		if byTable[r.Table] == nil {
			byTable[r.Table] = map[int][]model.Static{}
		}
		byTable[r.Table][int(r.Protocol)] = append(byTable[r.Table][int(r.Protocol)], model.NewStatic(dst.String(), hops))
	}
	for _, m := range byTable {
		for _, rs := range m {
			sortStatics(rs)
		}
	}
	def := model.Instance{Name: model.DefaultInstance,
		Config:    model.InstanceConfig{Name: model.DefaultInstance, Type: model.TypeDefault, Enabled: true},
		Protocols: model.Protocols{Protocol: []model.Protocol{model.NewProtocol(model.ProtoStatic, byTable[tableMain][protoStatic])}}}
	c.Instances[model.DefaultInstance] = def
	first := 0
	for _, v := range k.labels.vrfs {
		if first == 0 || v.table < first {
			first = v.table
		}
	}
	for name, v := range k.labels.vrfs {
		n := model.Instance{Name: name,
			Config: model.InstanceConfig{Name: name, Type: model.TypeL3VRF, Enabled: true, Description: v.description}}
		for _, p := range model.VRFProtocols {
			var rs []model.Static
			switch p {
			case model.ProtoLocal:
				rs = byTable[v.table][protoLocal]
			case model.ProtoMinimal:
				rs = byTable[v.table][protoMinimal]
			case model.ProtoEVStage1, model.ProtoEVStage2:
				if v.table == first {
					stage := 1
					if p == model.ProtoEVStage2 {
						stage = 2
					}
					rs = evRoutes(ev[stage])
				}
			}
			n.Protocols.Protocol = append(n.Protocols.Protocol, model.NewProtocol(p, rs))
		}
		c.Instances[name] = n
	}
}

// evRoutes recovers each EV route's members from the per-(stage, r) tables: table r holds
// member r mod n, so the members are the shortest period of the sequence over r.
func evRoutes(byPrefix map[netip.Prefix]map[int]model.Hop) []model.Static {
	var out []model.Static
	for dst, seq := range byPrefix {
		l := len(seq)
		n := l
		for p := 1; p < l; p++ {
			if l%p != 0 {
				continue
			}
			periodic := true
			for r := 0; r < l && periodic; r++ {
				periodic = seq[r] == seq[r%p]
			}
			if periodic {
				n = p
				break
			}
		}
		hops := make([]model.Hop, n)
		for r := 0; r < n; r++ {
			hops[r] = seq[r]
		}
		out = append(out, model.NewStatic(dst.String(), hops))
	}
	sortStatics(out)
	return out
}

// sortStatics orders routes by prefix: OpenConfig lists are keyed, their order carries nothing.
func sortStatics(rs []model.Static) {
	sort.Slice(rs, func(i, j int) bool {
		a, b := netip.MustParsePrefix(rs[i].Prefix), netip.MustParsePrefix(rs[j].Prefix)
		if c := a.Addr().Compare(b.Addr()); c != 0 {
			return c < 0
		}
		return a.Bits() < b.Bits()
	})
}
