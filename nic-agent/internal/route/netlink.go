package route

import (
	"context"
	"errors"
	"fmt"
	"net"
	"slices"

	"github.com/vishvananda/netlink"
	"github.com/vishvananda/netlink/nl"
	"github.com/vishvananda/netns"
	"golang.org/x/sys/unix"
)

// Protocol is the rtm_protocol number stamped on every route the agent programs, so that
// List and Delete see only the agent's own routes and an operator can spot them
// (`ip -6 route show proto 200`). 200 is outside the numbers iproute2 and routing daemons use.
const Protocol = 200

var native = nl.NativeEndian()

// seg6ModeEncapRed is SEG6_IPTUN_MODE_ENCAP_RED of linux/seg6_iptunnel.h (H.Encaps.Red: the
// first carrier goes into the outer destination only, so one carrier needs no SRH). The
// netlink package names only the inline and encap modes.
const seg6ModeEncapRed = 3

// dumpAttempts bounds retries of a route dump the kernel reports as interrupted (the table
// changed while it was read); this is the one place such dumps are retried.
const dumpAttempts = 3

// Netlink programs routes over rtnetlink, in the agent's own network namespace or in a named one
// (the lab runs the agent in the root namespace and programs a host namespace).
type Netlink struct {
	h    *netlink.Handle
	dump *nl.SocketHandle // own socket for route dumps, see List
}

var _ Programmer = (*Netlink)(nil)

// NewNetlink opens a netlink socket in the namespace netns ("" = the agent's own namespace,
// else a name under /var/run/netns as `ip netns` creates them).
func NewNetlink(netnsName string) (*Netlink, error) {
	if netnsName == "" {
		h, err := netlink.NewHandle(unix.NETLINK_ROUTE)
		if err != nil {
			return nil, fmt.Errorf("open rtnetlink: %w", err)
		}
		return newNetlink(h, netns.None())
	}
	ns, err := netns.GetFromName(netnsName)
	if err != nil {
		return nil, fmt.Errorf("netns: %q: %w", netnsName, err)
	}
	defer ns.Close() // the sockets stay in the namespace once opened
	h, err := netlink.NewHandleAt(ns, unix.NETLINK_ROUTE)
	if err != nil {
		return nil, fmt.Errorf("open rtnetlink in netns %q: %w", netnsName, err)
	}
	return newNetlink(h, ns)
}

func newNetlink(h *netlink.Handle, ns netns.NsHandle) (*Netlink, error) {
	var sock *nl.NetlinkSocket
	var err error
	if ns.IsOpen() {
		sock, err = nl.GetNetlinkSocketAt(ns, netns.None(), unix.NETLINK_ROUTE)
	} else {
		sock, err = nl.GetNetlinkSocketAt(netns.None(), netns.None(), unix.NETLINK_ROUTE)
	}
	if err != nil {
		h.Close()
		return nil, fmt.Errorf("open rtnetlink for dumps: %w", err)
	}
	return &Netlink{h: h, dump: &nl.SocketHandle{Socket: sock}}, nil
}

// Handle is the underlying netlink handle, for reading links and addresses of the same namespace.
func (n *Netlink) Handle() *netlink.Handle { return n.h }

// Close releases the netlink socket.
func (n *Netlink) Close() {
	n.h.Close()
	n.dump.Close()
}

// Replace installs r with NLM_F_REPLACE: the kernel swaps the route in one step.
func (n *Netlink) Replace(_ context.Context, r Route) error {
	if err := Check(r); err != nil {
		return err
	}
	nr, err := n.toKernel(r)
	if err != nil {
		return err
	}
	if err := n.h.RouteReplace(nr); err != nil {
		return fmt.Errorf("replace route to %s: %w", r.Dst, classify(err))
	}
	return nil
}

func (n *Netlink) toKernel(r Route) (*netlink.Route, error) {
	link, err := n.h.LinkByName(r.Dev)
	if err != nil {
		return nil, fmt.Errorf("dev: %q: %w", r.Dev, err)
	}
	_, dst, _ := net.ParseCIDR(r.Dst) // checked by Check
	var gw net.IP
	if r.Via != "" {
		gw = net.ParseIP(r.Via)
	}
	nr := &netlink.Route{Dst: dst, Protocol: Protocol, Table: unix.RT_TABLE_MAIN, Family: netlink.FAMILY_V6}
	if len(r.Nexthops) == 1 {
		nr.LinkIndex, nr.Gw, nr.Encap = link.Attrs().Index, gw, encapOf(r.Nexthops[0].Carriers)
		return nr, nil
	}
	for i, nh := range r.Nexthops {
		idx, ngw := link.Attrs().Index, gw
		if nh.Dev != "" {
			l, err := n.h.LinkByName(nh.Dev)
			if err != nil {
				return nil, fmt.Errorf("nexthops[%d].dev: %q: %w", i, nh.Dev, err)
			}
			idx, ngw = l.Attrs().Index, nil
			if nh.Via != "" {
				ngw = net.ParseIP(nh.Via)
			}
		}
		nr.MultiPath = append(nr.MultiPath, &netlink.NexthopInfo{
			LinkIndex: idx, Gw: ngw, Hops: nh.Weight - 1, Encap: encapOf(nh.Carriers)})
	}
	return nr, nil
}

// encapOf builds the seg6 encap; the SRH lists segments last-first (RFC 8754), as iproute2 does.
func encapOf(carriers []string) *netlink.SEG6Encap {
	segs := make([]net.IP, len(carriers))
	for i, c := range carriers {
		segs[len(carriers)-1-i] = net.ParseIP(c)
	}
	return &netlink.SEG6Encap{Mode: seg6ModeEncapRed, Segments: segs}
}

// Delete removes the agent's route to dstPrefix (only a route with the agent's protocol matches).
func (n *Netlink) Delete(_ context.Context, dstPrefix string) error {
	if _, err := checkPrefix("dst", dstPrefix); err != nil {
		return err
	}
	_, dst, _ := net.ParseCIDR(dstPrefix)
	err := n.h.RouteDel(&netlink.Route{Dst: dst, Protocol: Protocol, Table: unix.RT_TABLE_MAIN, Family: netlink.FAMILY_V6})
	if err != nil {
		return fmt.Errorf("delete route to %s: %w", dstPrefix, classify(err))
	}
	return nil
}

// List returns the agent's SRv6 routes of the main table, in the order the kernel dumps them.
// It parses the dump itself: netlink v1.3.1 decodes only MPLS encapsulation inside multipath
// next hops and would drop every carrier of a multipath route.
func (n *Netlink) List(_ context.Context) ([]Route, error) {
	var msgs [][]byte
	var err error
	for attempt := 1; attempt <= dumpAttempts; attempt++ {
		req := nl.NewNetlinkRequest(unix.RTM_GETROUTE, unix.NLM_F_DUMP)
		req.Sockets = map[int]*nl.SocketHandle{unix.NETLINK_ROUTE: n.dump}
		msg := nl.NewRtMsg()
		msg.Family = unix.AF_INET6
		req.AddData(msg)
		msgs, err = req.Execute(unix.NETLINK_ROUTE, unix.RTM_NEWROUTE)
		if !errors.Is(err, nl.ErrDumpInterrupted) {
			break
		}
	}
	if err != nil {
		return nil, fmt.Errorf("list routes: %w", err)
	}
	names := map[int]string{}
	devName := func(idx int) string {
		if _, ok := names[idx]; !ok {
			if l, err := n.h.LinkByIndex(idx); err == nil {
				names[idx] = l.Attrs().Name
			}
		}
		return names[idx]
	}
	var out []Route
	for _, m := range msgs {
		r, ok, err := parseRoute(m, devName)
		if err != nil {
			return nil, fmt.Errorf("list routes: %w", err)
		}
		if ok {
			out = append(out, r)
		}
	}
	return out, nil
}

// parseRoute reads one RTM_NEWROUTE message; ok is false for routes that are not the agent's
// SRv6 routes of the main table.
func parseRoute(m []byte, devName func(int) string) (Route, bool, error) {
	msg := nl.DeserializeRtMsg(m)
	if msg.Protocol != Protocol || msg.Family != unix.AF_INET6 {
		return Route{}, false, nil
	}
	attrs, err := nl.ParseRouteAttr(m[msg.Len():])
	if err != nil {
		return Route{}, false, err
	}
	table := uint32(msg.Table)
	var dst net.IP
	var gw net.IP
	oif := 0
	var multi []byte
	var encap, encapType []byte
	for _, a := range attrs {
		switch a.Attr.Type {
		case unix.RTA_TABLE:
			table = native.Uint32(a.Value)
		case unix.RTA_DST:
			dst = net.IP(a.Value)
		case unix.RTA_GATEWAY:
			gw = net.IP(a.Value)
		case unix.RTA_OIF:
			oif = int(native.Uint32(a.Value))
		case unix.RTA_ENCAP_TYPE:
			encapType = a.Value
		case unix.RTA_ENCAP:
			encap = a.Value
		case unix.RTA_MULTIPATH:
			multi = a.Value
		}
	}
	if table != unix.RT_TABLE_MAIN || dst == nil {
		return Route{}, false, nil
	}
	r := Route{Dst: (&net.IPNet{IP: dst, Mask: net.CIDRMask(int(msg.Dst_len), 128)}).String()}
	if multi == nil {
		carriers, ok := seg6Carriers(encapType, encap)
		if !ok {
			return Route{}, false, nil
		}
		r.Dev, r.Via, r.Nexthops = devName(oif), ipText(gw), []Nexthop{{Carriers: carriers, Weight: 1}}
		return r, true, nil
	}
	for len(multi) >= unix.SizeofRtNexthop {
		nh := nl.DeserializeRtNexthop(multi)
		size := int(nh.RtNexthop.Len)
		if size < unix.SizeofRtNexthop || size > len(multi) {
			return Route{}, false, fmt.Errorf("route to %s: truncated next hop", r.Dst)
		}
		nattrs, err := nl.ParseRouteAttr(multi[unix.SizeofRtNexthop:size])
		if err != nil {
			return Route{}, false, err
		}
		var ngw net.IP
		var ne, netype []byte
		for _, a := range nattrs {
			switch a.Attr.Type {
			case unix.RTA_GATEWAY:
				ngw = net.IP(a.Value)
			case unix.RTA_ENCAP_TYPE:
				netype = a.Value
			case unix.RTA_ENCAP:
				ne = a.Value
			}
		}
		carriers, ok := seg6Carriers(netype, ne)
		if !ok {
			return Route{}, false, nil
		}
		r.Nexthops = append(r.Nexthops, Nexthop{Carriers: carriers, Weight: int(nh.RtNexthop.Hops) + 1,
			Dev: devName(int(nh.RtNexthop.Ifindex)), Via: ipText(ngw)})
		multi = multi[min(len(multi), (size+unix.RTA_ALIGNTO-1)&^(unix.RTA_ALIGNTO-1)):]
	}
	return uniformNexthops(r), true, nil
}

// seg6Carriers decodes an RTA_ENCAP of type seg6 (one nested SEG6_IPTUNNEL_SRH attribute).
func seg6Carriers(encapType, encap []byte) ([]string, bool) {
	if len(encapType) < 2 || native.Uint16(encapType) != nl.LWTUNNEL_ENCAP_SEG6 || len(encap) < 4 {
		return nil, false
	}
	e := &netlink.SEG6Encap{}
	if err := e.Decode(encap); err != nil {
		return nil, false
	}
	return carriersOf(e), true
}

func carriersOf(e *netlink.SEG6Encap) []string {
	out := make([]string, 0, len(e.Segments))
	for _, s := range slices.Backward(e.Segments) {
		out = append(out, s.String())
	}
	return out
}

func ipText(ip net.IP) string {
	if ip == nil {
		return ""
	}
	return ip.String()
}

// classify adds a sentinel to the kernel errors callers act on.
func classify(err error) error {
	switch {
	case errors.Is(err, unix.ESRCH):
		return fmt.Errorf("%w: %w", ErrNoRoute, err)
	case errors.Is(err, unix.EOPNOTSUPP), errors.Is(err, unix.EAFNOSUPPORT):
		return fmt.Errorf("%w: %w", ErrUnsupported, err)
	}
	return err
}

// uniformNexthops puts a multipath route read from the kernel in the one form routes are compared
// in: the route's Dev and Via are the first next hop's, and the next hops keep their own only when
// some differ (a NIC with one port per plane).
func uniformNexthops(r Route) Route {
	if len(r.Nexthops) == 0 {
		return r
	}
	r.Dev, r.Via = r.Nexthops[0].Dev, r.Nexthops[0].Via
	for _, nh := range r.Nexthops {
		if nh.Dev != r.Dev || nh.Via != r.Via {
			return r
		}
	}
	for i := range r.Nexthops {
		r.Nexthops[i].Dev, r.Nexthops[i].Via = "", ""
	}
	return r
}
