// Package route programs the host side of Weft paths: one IPv6 route per destination that
// encapsulates matching packets into SRv6 with the path's uSID carriers (H.Encaps.Red).
package route

import (
	"context"
	"errors"
	"fmt"
	"net/netip"
	"strings"
)

// Route is one encapsulating route as the kernel holds it: one destination, one or more
// weighted SRv6 next hops. Several next hops make a multipath route: the kernel spreads flows
// over them by hash, in proportion to the weights.
type Route struct {
	Dst      string    // destination prefix, e.g. 2001:db8:1::/64 (a host is written /128)
	Dev      string    // outgoing interface
	Via      string    // next hop; empty when the route is on-link
	Nexthops []Nexthop // at least one
}

// Nexthop is one encapsulation of a route.
type Nexthop struct {
	Carriers []string // uSID carriers: [0] becomes the outer destination, the rest the SRH
	Weight   int      // 1..256, relative share of flows; ignored with a single next hop
	// Dev and Via, when set, send this next hop out another interface than the route's (a NIC
	// with one port per fabric plane); empty means the route's Dev and Via. Routes are kept in one
	// form: either no next hop sets them, or (their interfaces differ) every next hop does.
	Dev string
	Via string
}

// NexthopDev is the interface next hop i leaves by.
func (r Route) NexthopDev(i int) string {
	if r.Nexthops[i].Dev != "" {
		return r.Nexthops[i].Dev
	}
	return r.Dev
}

// NexthopVia is the gateway of next hop i ("" when on-link).
func (r Route) NexthopVia(i int) string {
	if r.Nexthops[i].Dev != "" {
		return r.Nexthops[i].Via
	}
	return r.Via
}

// MaxWeight is the largest next-hop weight the kernel holds (rtnh_hops + 1 in one byte).
const MaxWeight = 256

// Programmer is the seam between the agent and the host's routing table. Implementations only
// list and delete routes they programmed themselves, never other routes of the host.
type Programmer interface {
	// Replace creates or atomically replaces the route to r.Dst; replacing it moves the
	// destination's traffic to the new next hops at once, with no moment without a route.
	Replace(ctx context.Context, r Route) error
	// Delete removes the route to dstPrefix; ErrNoRoute when there is none.
	Delete(ctx context.Context, dstPrefix string) error
	// List returns the routes this programmer owns.
	List(ctx context.Context) ([]Route, error)
}

var (
	// ErrInvalid marks input rejected before anything reached the kernel.
	ErrInvalid = errors.New("invalid route")
	// ErrNoRoute is returned by Delete when no route owned by the programmer matches.
	ErrNoRoute = errors.New("no such route")
	// ErrUnsupported means the kernel cannot do SRv6 encapsulation (no CONFIG_IPV6_SEG6_LWTUNNEL).
	ErrUnsupported = errors.New("kernel lacks SRv6 encapsulation")
)

// maxIfNameLen is IFNAMSIZ minus the terminating NUL.
const maxIfNameLen = 15

func checkPrefix(field, s string) (netip.Prefix, error) {
	p, err := netip.ParsePrefix(s)
	if err != nil || !p.Addr().Is6() || p.Addr().Is4In6() || p.Addr().Zone() != "" {
		return netip.Prefix{}, fmt.Errorf("%s: %q is not an IPv6 prefix: %w", field, s, ErrInvalid)
	}
	if p.Masked() != p {
		return netip.Prefix{}, fmt.Errorf("%s: %q has bits set after /%d (use %s): %w", field, s, p.Bits(), p.Masked(), ErrInvalid)
	}
	return p, nil
}

func checkAddr(field, s string) (netip.Addr, error) {
	a, err := netip.ParseAddr(s)
	if err != nil || !a.Is6() || a.Is4In6() || a.Zone() != "" {
		return netip.Addr{}, fmt.Errorf("%s: %q is not an IPv6 address: %w", field, s, ErrInvalid)
	}
	return a, nil
}

func checkDev(dev string) error {
	if dev == "" || len(dev) > maxIfNameLen || strings.ContainsAny(dev, "/: \t\n") || dev == "." || dev == ".." {
		return fmt.Errorf("dev: %q is not a Linux interface name: %w", dev, ErrInvalid)
	}
	return nil
}

// Check validates a route at the boundary, before anything reaches the kernel, naming the bad field.
func Check(r Route) error {
	if _, err := checkPrefix("dst", r.Dst); err != nil {
		return err
	}
	if len(r.Nexthops) == 0 {
		return fmt.Errorf("nexthops: at least one next hop is needed: %w", ErrInvalid)
	}
	for i, nh := range r.Nexthops {
		if len(nh.Carriers) == 0 {
			return fmt.Errorf("nexthops[%d].carriers: at least one carrier is needed: %w", i, ErrInvalid)
		}
		for j, c := range nh.Carriers {
			if _, err := checkAddr(fmt.Sprintf("nexthops[%d].carriers[%d]", i, j), c); err != nil {
				return err
			}
		}
		if len(r.Nexthops) > 1 && (nh.Weight < 1 || nh.Weight > MaxWeight) {
			return fmt.Errorf("nexthops[%d].weight: %d is outside 1..%d: %w", i, nh.Weight, MaxWeight, ErrInvalid)
		}
		if nh.Dev != "" {
			if err := checkDev(nh.Dev); err != nil {
				return fmt.Errorf("nexthops[%d].%w", i, err)
			}
		} else if nh.Via != "" {
			return fmt.Errorf("nexthops[%d].via: set without a dev: %w", i, ErrInvalid)
		}
		if nh.Via != "" {
			if _, err := checkAddr(fmt.Sprintf("nexthops[%d].via", i), nh.Via); err != nil {
				return err
			}
		}
	}
	if err := checkDev(r.Dev); err != nil {
		return err
	}
	if r.Via != "" {
		if _, err := checkAddr("via", r.Via); err != nil {
			return err
		}
	}
	return nil
}

// Equal reports whether two routes program the same forwarding (weights count only when
// there are several next hops; carriers compare as addresses, not text).
func Equal(a, b Route) bool {
	if a.Dst != b.Dst || a.Dev != b.Dev || !sameAddr(a.Via, b.Via) || len(a.Nexthops) != len(b.Nexthops) {
		return false
	}
	for i := range a.Nexthops {
		x, y := a.Nexthops[i], b.Nexthops[i]
		if len(a.Nexthops) > 1 && x.Weight != y.Weight || len(x.Carriers) != len(y.Carriers) {
			return false
		}
		if a.NexthopDev(i) != b.NexthopDev(i) || !sameAddr(a.NexthopVia(i), b.NexthopVia(i)) {
			return false
		}
		for j := range x.Carriers {
			if !sameAddr(x.Carriers[j], y.Carriers[j]) {
				return false
			}
		}
	}
	return true
}

func sameAddr(a, b string) bool {
	if a == b {
		return true
	}
	x, err1 := netip.ParseAddr(a)
	y, err2 := netip.ParseAddr(b)
	return err1 == nil && err2 == nil && x == y
}
