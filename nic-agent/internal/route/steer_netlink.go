package route

import (
	"context"
	"errors"
	"fmt"
	"net"
	"slices"

	"github.com/vishvananda/netlink"
	"golang.org/x/sys/unix"
)

var _ Steerer = (*Netlink)(nil)

// ListSteering reads the agent's steering rules (priority, protocol and table range all match)
// and the default routes of its port tables.
func (n *Netlink) ListSteering(_ context.Context) (Steering, error) {
	var s Steering
	rules, err := n.h.RuleList(netlink.FAMILY_V6)
	if err != nil {
		return s, fmt.Errorf("list rules: %w", err)
	}
	for _, r := range rules {
		if r.Priority != SteerPriority || r.Protocol != Protocol || !ownsTable(r.Table) || r.Dst == nil ||
			r.IPProto != unix.IPPROTO_UDP || r.Sport == nil || r.Sport.Start != r.Sport.End {
			continue
		}
		s.Rules = append(s.Rules, Steer{Peer: r.Dst.IP.String(), Sport: int(r.Sport.Start), Table: r.Table})
	}
	routes, err := n.h.RouteListFiltered(netlink.FAMILY_V6, &netlink.Route{Table: unix.RT_TABLE_UNSPEC},
		netlink.RT_FILTER_TABLE)
	if err != nil {
		return s, fmt.Errorf("list port tables: %w", err)
	}
	for _, r := range routes {
		if !ownsTable(r.Table) || r.Protocol != Protocol || (r.Dst != nil && !r.Dst.IP.IsUnspecified()) {
			continue
		}
		t := PortTable{Table: r.Table, Via: ipText(r.Gw)}
		if l, err := n.h.LinkByIndex(r.LinkIndex); err == nil {
			t.Dev = l.Attrs().Name
		}
		s.Tables = append(s.Tables, t)
	}
	slices.SortFunc(s.Tables, func(a, b PortTable) int { return a.Table - b.Table })
	return s, nil
}

// ReplaceTable points the table's default route out t.Dev via t.Via.
func (n *Netlink) ReplaceTable(_ context.Context, t PortTable) error {
	if err := CheckTable(t); err != nil {
		return err
	}
	link, err := n.h.LinkByName(t.Dev)
	if err != nil {
		return fmt.Errorf("dev: %q: %w", t.Dev, err)
	}
	r := &netlink.Route{Dst: defaultV6(), Table: t.Table, Protocol: Protocol, Family: netlink.FAMILY_V6,
		LinkIndex: link.Attrs().Index}
	if t.Via != "" {
		r.Gw = net.ParseIP(t.Via)
	}
	if err := n.h.RouteReplace(r); err != nil {
		return fmt.Errorf("port table %d: %w", t.Table, classify(err))
	}
	return nil
}

// DeleteTable removes the table's default route.
func (n *Netlink) DeleteTable(_ context.Context, table int) error {
	if err := checkTable(table); err != nil {
		return err
	}
	err := n.h.RouteDel(&netlink.Route{Dst: defaultV6(), Table: table, Protocol: Protocol, Family: netlink.FAMILY_V6})
	if err != nil {
		return fmt.Errorf("port table %d: %w", table, classify(err))
	}
	return nil
}

// AddSteer adds `ip rule add pref 110 to PEER/128 ipproto udp sport N lookup TABLE proto 200`.
func (n *Netlink) AddSteer(_ context.Context, s Steer) error {
	if err := CheckSteer(s); err != nil {
		return err
	}
	if err := n.h.RuleAdd(ruleOf(s)); err != nil && !errors.Is(err, unix.EEXIST) {
		return fmt.Errorf("steer udp sport %d to %s: %w", s.Sport, s.Peer, classify(err))
	}
	return nil
}

// DeleteSteer removes the rule AddSteer made for s.
func (n *Netlink) DeleteSteer(_ context.Context, s Steer) error {
	if err := CheckSteer(s); err != nil {
		return err
	}
	if err := n.h.RuleDel(ruleOf(s)); err != nil {
		if errors.Is(err, unix.ENOENT) {
			return fmt.Errorf("steer udp sport %d to %s: %w", s.Sport, s.Peer, ErrNoRoute)
		}
		return fmt.Errorf("steer udp sport %d to %s: %w", s.Sport, s.Peer, classify(err))
	}
	return nil
}

func ruleOf(s Steer) *netlink.Rule {
	r := netlink.NewRule()
	r.Family, r.Priority, r.Table, r.Protocol = netlink.FAMILY_V6, SteerPriority, s.Table, Protocol
	r.Dst = &net.IPNet{IP: net.ParseIP(s.Peer), Mask: net.CIDRMask(128, 128)}
	r.IPProto = unix.IPPROTO_UDP
	r.Sport = netlink.NewRulePortRange(uint16(s.Sport), uint16(s.Sport))
	return r
}

func defaultV6() *net.IPNet {
	return &net.IPNet{IP: net.IPv6zero, Mask: net.CIDRMask(0, 128)}
}
