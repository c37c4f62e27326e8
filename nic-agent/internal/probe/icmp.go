// Package probe checks one entry's path end to end: an ICMPv6 echo to the peer sent along that
// entry's carriers only, whatever the multipath route to the peer would pick.
//
// Each probed entry gets a slot: a routing table holding a single route to the peer with that
// entry's carriers, and an `ip rule` sending packets with the slot's firewall mark to it. The
// echo socket sets the mark per probe (SO_MARK), so the request follows exactly that path; the
// reply comes back however the peer routes it.
package probe

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"os"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/vishvananda/netlink"
	"github.com/vishvananda/netns"
	"golang.org/x/sys/unix"

	"weft.io/nic-agent/internal/route"
)

// Slot numbering: tables and marks FirstTable+i for slot i, rules at priority RulePriority.
const (
	FirstTable   = 0x5745_0000 // "WE": far above the tables routing daemons use
	RulePriority = 100
	maxSlots     = 4096
)

// Path is one entry to probe.
type Path struct {
	ID       string
	Peer     string // the peer's IPv6 address
	Carriers []string
	Dev      string // the port the entry leaves by (multi-plane NICs); empty: the uplink
	Via      string // that port's gateway, with Dev
}

// ICMP probes with ICMPv6 echo from the namespace of h.
type ICMP struct {
	h    *netlink.Handle
	up   route.Route // Dev and Via of the uplink (Dst and Nexthops unused)
	fd   int
	id   uint16
	mu   sync.Mutex
	seq  uint16
	slot map[string]int
	// routed is the carriers each slot's table holds, so a probe re-programs its route only when
	// the entry's carriers changed, not every time.
	routed map[int]string
	buf    []byte
}

// NewICMP opens a raw ICMPv6 socket in the namespace netnsName ("" = the agent's own) and
// probes over the uplink dev/via with the netlink handle h of the same namespace.
func NewICMP(netnsName string, h *netlink.Handle, dev, via string) (*ICMP, error) {
	fd, err := socketIn(netnsName)
	if err != nil {
		return nil, err
	}
	var f unix.ICMPv6Filter
	for i := range f.Data {
		f.Data[i] = 0xffffffff // block every type ...
	}
	f.Data[129>>5] &^= 1 << (129 & 31) // ... but echo reply
	if err := unix.SetsockoptICMPv6Filter(fd, unix.SOL_ICMPV6, unix.ICMPV6_FILTER, &f); err != nil {
		unix.Close(fd)
		return nil, fmt.Errorf("probe socket filter: %w", err)
	}
	return &ICMP{h: h, up: route.Route{Dev: dev, Via: via}, fd: fd, id: uint16(os.Getpid()),
		slot: map[string]int{}, routed: map[int]string{}, buf: make([]byte, 1500)}, nil
}

// socketIn creates the raw socket inside the target namespace; a socket stays in the namespace
// it was created in, so only this one thread switches, briefly.
func socketIn(netnsName string) (int, error) {
	open := func() (int, error) {
		fd, err := unix.Socket(unix.AF_INET6, unix.SOCK_RAW|unix.SOCK_CLOEXEC, unix.IPPROTO_ICMPV6)
		if err != nil {
			return -1, fmt.Errorf("probe socket: %w", err)
		}
		return fd, nil
	}
	if netnsName == "" {
		return open()
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	orig, err := netns.Get()
	if err != nil {
		return -1, fmt.Errorf("netns: %w", err)
	}
	defer orig.Close()
	target, err := netns.GetFromName(netnsName)
	if err != nil {
		return -1, fmt.Errorf("netns: %q: %w", netnsName, err)
	}
	defer target.Close()
	if err := netns.Set(target); err != nil {
		return -1, fmt.Errorf("netns: entering %q: %w", netnsName, err)
	}
	fd, oerr := open()
	if err := netns.Set(orig); err != nil {
		// This thread is in the wrong namespace: never hand it back to the scheduler.
		runtime.Goexit()
	}
	return fd, oerr
}

// Close removes the probe rules and tables and closes the socket.
func (p *ICMP) Close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, s := range p.slot {
		p.dropSlot(s)
	}
	unix.Close(p.fd)
}

// Forget drops the slots of entries no longer probed.
func (p *ICMP) Forget(keep map[string]bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for id, s := range p.slot {
		if !keep[id] {
			p.dropSlot(s)
			delete(p.slot, id)
			delete(p.routed, s)
		}
	}
}

func (p *ICMP) dropSlot(s int) {
	rule := netlink.NewRule()
	rule.Family, rule.Table, rule.Mark, rule.Priority = netlink.FAMILY_V6, FirstTable+s, uint32(FirstTable+s), RulePriority
	_ = p.h.RuleDel(rule)
	routes, _ := p.h.RouteListFiltered(netlink.FAMILY_V6, &netlink.Route{Table: FirstTable + s}, netlink.RT_FILTER_TABLE)
	for _, r := range routes {
		_ = p.h.RouteDel(&r)
	}
}

// ErrLost is a probe that got no answer in time.
var ErrLost = errors.New("probe lost")

// Probe sends one echo along path and returns the round-trip time.
func (p *ICMP) Probe(ctx context.Context, path Path, timeout time.Duration) (time.Duration, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	s, err := p.prepare(ctx, path)
	if err != nil {
		return 0, err
	}
	if err := unix.SetsockoptInt(p.fd, unix.SOL_SOCKET, unix.SO_MARK, FirstTable+s); err != nil {
		return 0, fmt.Errorf("probe mark: %w", err)
	}
	p.seq++
	msg := make([]byte, 16)
	msg[0] = 128 // echo request; the kernel fills the checksum of raw ICMPv6
	binary.BigEndian.PutUint16(msg[4:], p.id)
	binary.BigEndian.PutUint16(msg[6:], p.seq)
	copy(msg[8:], "weftprb!")
	var dst unix.SockaddrInet6
	copy(dst.Addr[:], net.ParseIP(path.Peer).To16())
	start := time.Now()
	if err := unix.Sendto(p.fd, msg, 0, &dst); err != nil {
		delete(p.routed, s)
		return 0, fmt.Errorf("probe %s: send: %w", path.ID, err)
	}
	deadline := start.Add(timeout)
	for {
		left := time.Until(deadline)
		if left <= 0 || ctx.Err() != nil {
			// The kernel drops routes through a device that went down: program the slot's route
			// again before the next probe rather than trust the cache.
			delete(p.routed, s)
			return 0, fmt.Errorf("probe %s: %w", path.ID, ErrLost)
		}
		tv := unix.NsecToTimeval(left.Nanoseconds())
		_ = unix.SetsockoptTimeval(p.fd, unix.SOL_SOCKET, unix.SO_RCVTIMEO, &tv)
		n, from, err := unix.Recvfrom(p.fd, p.buf, 0)
		if err != nil {
			if errors.Is(err, unix.EAGAIN) || errors.Is(err, unix.EINTR) {
				continue
			}
			delete(p.routed, s)
			return 0, fmt.Errorf("probe %s: receive: %w", path.ID, err)
		}
		sa, ok := from.(*unix.SockaddrInet6)
		if !ok || n < 8 || p.buf[0] != 129 || !net.IP(sa.Addr[:]).Equal(net.ParseIP(path.Peer)) {
			continue
		}
		if binary.BigEndian.Uint16(p.buf[4:]) == p.id && binary.BigEndian.Uint16(p.buf[6:]) == p.seq {
			return time.Since(start), nil
		}
	}
}

// prepare gives path a slot whose table routes the peer over exactly its carriers.
func (p *ICMP) prepare(_ context.Context, path Path) (int, error) {
	s, ok := p.slot[path.ID]
	if !ok {
		used := map[int]bool{}
		for _, v := range p.slot {
			used[v] = true
		}
		for s = 0; used[s]; s++ {
		}
		if s >= maxSlots {
			return 0, fmt.Errorf("probe %s: more than %d entries to probe", path.ID, maxSlots)
		}
		rule := netlink.NewRule()
		rule.Family, rule.Table, rule.Mark, rule.Priority = netlink.FAMILY_V6, FirstTable+s, uint32(FirstTable+s), RulePriority
		_ = p.h.RuleDel(rule) // left by an earlier run of the agent
		if err := p.h.RuleAdd(rule); err != nil {
			return 0, fmt.Errorf("probe %s: rule for slot %d: %w", path.ID, s, err)
		}
		p.slot[path.ID] = s
	}
	dev, via := p.up.Dev, p.up.Via
	if path.Dev != "" {
		dev, via = path.Dev, path.Via
	}
	key := path.Peer + "|" + strings.Join(path.Carriers, ",") + "|" + dev + "|" + via
	if p.routed[s] == key {
		return s, nil
	}
	link, err := p.h.LinkByName(dev)
	if err != nil {
		return 0, fmt.Errorf("dev: %q: %w", dev, err)
	}
	segs := make([]net.IP, len(path.Carriers))
	for i, c := range path.Carriers {
		segs[len(segs)-1-i] = net.ParseIP(c)
	}
	r := &netlink.Route{Dst: &net.IPNet{IP: net.ParseIP(path.Peer), Mask: net.CIDRMask(128, 128)},
		Table: FirstTable + s, Protocol: route.Protocol, LinkIndex: link.Attrs().Index,
		Encap: &netlink.SEG6Encap{Mode: 3 /* encap.red */, Segments: segs}}
	if via != "" {
		r.Gw = net.ParseIP(via)
	}
	if err := p.h.RouteReplace(r); err != nil {
		return 0, fmt.Errorf("probe %s: route in table %d: %w", path.ID, FirstTable+s, err)
	}
	p.routed[s] = key
	return s, nil
}
