package kernel

import (
	"bytes"
	"fmt"
	"net"
	"net/netip"
	"os/exec"
	"strings"

	"github.com/vishvananda/netlink"
	"github.com/vishvananda/netlink/nl"
	"golang.org/x/sys/unix"
	"weft.io/switch-agent/internal/model"
)

// Apply makes the kernel hold exactly c for everything Weft owns: links' admin state, the
// addresses it added (flagged nodad), routes tagged with its protocols, rules at its
// priorities, its nftables table. c must have passed model.Validate. On error the kernel is
// partly changed; the caller restores the previous configuration with another Apply.
func (k *Kernel) Apply(c model.Config) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	d, err := k.derive(c)
	if err != nil {
		return err
	}
	if err := k.prepare(); err != nil {
		return fmt.Errorf("%w: %w", ErrRefused, err)
	}
	steps := []func(desired) error{k.applyLinks, k.applyAddrs, k.applyRoutes, k.applyRules, k.applyNft}
	for _, step := range steps {
		if err := step(d); err != nil {
			return fmt.Errorf("%w: %w", ErrRefused, err)
		}
	}
	k.labels = labelsOf(c)
	running := c.Clone()
	k.running = &running
	return nil
}

func labelsOf(c model.Config) labels {
	l := labels{locator: "weft", vrfs: map[string]vrfLabel{}}
	for name := range c.Locators {
		l.locator = name
	}
	tables, _ := model.VRFTables(c)
	for name, t := range tables {
		l.vrfs[name] = vrfLabel{table: t, description: c.Instances[name].Config.Description}
	}
	return l
}

func (k *Kernel) applyLinks(d desired) error {
	for _, name := range sorted(d.up) {
		l, err := k.link(name)
		if err != nil {
			return err
		}
		if d.up[name] {
			err = k.h.LinkSetUp(l)
		} else {
			err = k.h.LinkSetDown(l)
		}
		if err != nil {
			return fmt.Errorf("link %s admin up=%v: %w", name, d.up[name], err)
		}
	}
	return nil
}

// ownedAddr: what Weft added (nodad) on a port; on lo everything but ::1 (lo never runs DAD).
func ownedAddr(link string, a netlink.Addr) bool {
	ip, _ := netip.AddrFromSlice(a.IP)
	if link == "lo" {
		return !ip.Unmap().IsLoopback()
	}
	return a.Flags&unix.IFA_F_NODAD != 0
}

func (k *Kernel) applyAddrs(d desired) error {
	for _, name := range sorted(d.addrs) {
		l, err := k.link(name)
		if err != nil {
			return err
		}
		cur, err := k.h.AddrList(l, netlink.FAMILY_V6)
		if err != nil {
			return fmt.Errorf("addresses of %s: %w", name, err)
		}
		want := map[netip.Prefix]kAddr{}
		for _, a := range d.addrs[name] {
			want[a.prefix] = a
		}
		for _, a := range cur {
			ip, _ := netip.AddrFromSlice(a.IP)
			ones, _ := a.Mask.Size()
			p := netip.PrefixFrom(ip.Unmap(), ones)
			if _, keep := want[p]; keep || !ownedAddr(name, a) {
				continue
			}
			if err := k.h.AddrDel(l, &a); err != nil {
				return fmt.Errorf("remove %s from %s: %w", p, name, err)
			}
		}
		for _, a := range d.addrs[name] {
			na := &netlink.Addr{IPNet: ipNet(a.prefix), Flags: unix.IFA_F_NODAD}
			if err := k.h.AddrReplace(l, na); err != nil {
				return fmt.Errorf("%s: address %s on %s: %w", a.where, a.prefix, name, err)
			}
		}
	}
	return nil
}

func ownedRoute(r netlink.Route) bool {
	switch {
	case r.Table == tableMain:
		return int(r.Protocol) == protoStatic || r.Encap != nil && r.Encap.Type() == nl.LWTUNNEL_ENCAP_SEG6_LOCAL
	case r.Table >= model.FirstVRFTable && r.Table <= model.LastVRFTable:
		return int(r.Protocol) == protoLocal || int(r.Protocol) == protoMinimal
	case r.Table >= evTableBase && r.Table < evTable(evStages+1, 0):
		return int(r.Protocol) == protoEV
	}
	return false
}

func (k *Kernel) listRoutes() ([]netlink.Route, error) {
	rs, err := k.h.RouteListFiltered(netlink.FAMILY_V6, &netlink.Route{Table: unix.RT_TABLE_UNSPEC}, netlink.RT_FILTER_TABLE)
	if err != nil {
		return nil, fmt.Errorf("route dump: %w", err)
	}
	return rs, nil
}

func (k *Kernel) applyRoutes(d desired) error {
	cur, err := k.listRoutes()
	if err != nil {
		return err
	}
	want := map[routeKey]bool{}
	for _, r := range d.routes {
		want[routeKey{r.table, r.dst}] = true
	}
	for _, r := range cur {
		if !ownedRoute(r) || r.Dst == nil {
			continue
		}
		p := prefixOf(r.Dst)
		if want[routeKey{r.Table, p}] {
			continue
		}
		if err := k.h.RouteDel(&r); err != nil {
			return fmt.Errorf("remove route %s table %d: %w", p, r.Table, err)
		}
	}
	for _, r := range d.routes {
		nr, err := k.netlinkRoute(r)
		if err != nil {
			return err
		}
		if err := k.h.RouteReplace(nr); err != nil {
			return fmt.Errorf("%s: route %s table %d: %w", r.where, r.dst, r.table, err)
		}
	}
	return nil
}

func (k *Kernel) netlinkRoute(r kRoute) (*netlink.Route, error) {
	nr := &netlink.Route{Dst: ipNet(r.dst), Table: r.table, Protocol: netlink.RouteProtocol(r.proto), Family: netlink.FAMILY_V6}
	if r.seg != nil {
		l, err := k.link(r.seg.dev)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", r.where, err)
		}
		nr.LinkIndex = l.Attrs().Index
		e := netlink.SEG6LocalEncap{}
		e.Flags[nl.SEG6_LOCAL_ACTION] = true
		switch r.seg.action {
		case "End":
			e.Action = nl.SEG6_LOCAL_ACTION_END
		case "End.DT6":
			e.Action = nl.SEG6_LOCAL_ACTION_END_DT6
			e.Table = r.seg.table
			e.Flags[nl.SEG6_LOCAL_TABLE] = true
		case "End.X":
			e.Action = nl.SEG6_LOCAL_ACTION_END_X
			e.In6Addr = net.IP(r.seg.nh6.AsSlice())
			e.Flags[nl.SEG6_LOCAL_NH6] = true
			oif, err := k.link(r.seg.oif)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", r.where, err)
			}
			e.Oif = oif.Attrs().Index
			e.Flags[nl.SEG6_LOCAL_OIF] = true
		}
		if r.seg.lblen > 0 {
			nr.Encap = &csidEncap{SEG6LocalEncap: e, lblen: uint8(r.seg.lblen), nflen: uint8(r.seg.nflen)}
		} else {
			nr.Encap = &e
		}
		return nr, nil
	}
	var hops []*netlink.NexthopInfo
	for _, h := range r.hops {
		l, err := k.link(h.dev)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", r.where, err)
		}
		hops = append(hops, &netlink.NexthopInfo{LinkIndex: l.Attrs().Index, Gw: net.IP(h.gw.AsSlice())})
	}
	if len(hops) == 1 {
		nr.LinkIndex, nr.Gw = hops[0].LinkIndex, hops[0].Gw
	} else {
		nr.MultiPath = hops
	}
	return nr, nil
}

func ownedRule(r netlink.Rule) bool {
	return r.Priority == evRulePref || r.Priority >= vrfRulePref && r.Priority <= lastVRFRulePref ||
		r.Priority == fabricVRFRulePref
}

type ruleKey struct {
	pref  int
	iif   string
	mark  uint32
	table int
}

func (k *Kernel) applyRules(d desired) error {
	cur, err := k.h.RuleList(netlink.FAMILY_V6)
	if err != nil {
		return fmt.Errorf("rule dump: %w", err)
	}
	want := map[ruleKey]kRule{}
	for _, r := range d.rules {
		want[ruleKey{r.pref, r.iif, r.mark, r.table}] = r
	}
	have := map[ruleKey]bool{}
	for _, r := range cur {
		if !ownedRule(r) {
			continue
		}
		key := ruleKey{r.Priority, r.IifName, r.Mark, r.Table}
		if _, ok := want[key]; ok && !have[key] {
			have[key] = true
			continue
		}
		r := r
		if err := k.h.RuleDel(&r); err != nil {
			return fmt.Errorf("remove rule pref %d: %w", r.Priority, err)
		}
	}
	for _, r := range d.rules {
		key := ruleKey{r.pref, r.iif, r.mark, r.table}
		if have[key] {
			continue
		}
		nr := netlink.NewRule()
		nr.Family, nr.Priority, nr.Table, nr.IifName, nr.Mark = netlink.FAMILY_V6, r.pref, r.table, r.iif, r.mark
		if err := k.h.RuleAdd(nr); err != nil {
			return fmt.Errorf("%s: rule pref %d iif %q fwmark %#x lookup %d: %w", r.where, r.pref, r.iif, r.mark, r.table, err)
		}
		have[key] = true
	}
	return nil
}

// applyNft replaces the agent's nftables table in one atomic nft transaction (declare, delete,
// re-add), or removes it. netlink has no nftables expression builder in the pinned library set;
// nft(8) is what the lab installs and is run inside the namespace.
func (k *Kernel) applyNft(d desired) error {
	if k.nft != nil && *k.nft == d.nft {
		return nil
	}
	script := "table ip6 " + nftTable + " {}\ndelete table ip6 " + nftTable + "\n" + d.nft
	if _, err := exec.LookPath("nft"); err != nil {
		if d.nft == "" {
			return nil // nothing to install, and nothing can have been installed without nft
		}
		return fmt.Errorf("EV stage routes need nft(8): %w", err)
	}
	args := []string{"nft", "-f", "-"}
	if k.nsName != "" {
		args = append([]string{"ip", "netns", "exec", k.nsName}, args...)
	}
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stdin = strings.NewReader(script)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("nft table ip6 %s: %w: %s", nftTable, err, strings.TrimSpace(out.String()))
	}
	k.nft = &d.nft
	return nil
}

func ipNet(p netip.Prefix) *net.IPNet {
	return &net.IPNet{IP: net.IP(p.Addr().AsSlice()), Mask: net.CIDRMask(p.Bits(), p.Addr().BitLen())}
}

func prefixOf(n *net.IPNet) netip.Prefix {
	ip, _ := netip.AddrFromSlice(n.IP)
	ones, _ := n.Mask.Size()
	return netip.PrefixFrom(ip.Unmap(), ones).Masked()
}
