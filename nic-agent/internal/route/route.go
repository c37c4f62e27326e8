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

// Route is one encapsulating route as the kernel holds it.
type Route struct {
	Dst      string   // destination prefix, e.g. 2001:db8:1::/64 (a host is written /128)
	Carriers []string // uSID carriers: [0] becomes the outer destination, the rest the SRH
	Dev      string   // outgoing interface
	Via      string   // next hop; empty when the route is on-link
}

// Programmer is the seam between the agent and the host's routing table. Implementations only
// list and delete routes they programmed themselves, never other routes of the host.
type Programmer interface {
	// ReplaceEncap creates or atomically replaces the route to dstPrefix; replacing it moves
	// the destination's traffic to the new path at once.
	ReplaceEncap(ctx context.Context, dstPrefix string, carriers []string, dev, via string) error
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

// checkEncap validates a ReplaceEncap request at the boundary, naming the bad field.
func checkEncap(dstPrefix string, carriers []string, dev, via string) error {
	if _, err := checkPrefix("dst", dstPrefix); err != nil {
		return err
	}
	if len(carriers) == 0 {
		return fmt.Errorf("carriers: at least one carrier is needed: %w", ErrInvalid)
	}
	for i, c := range carriers {
		if _, err := checkAddr(fmt.Sprintf("carriers[%d]", i), c); err != nil {
			return err
		}
	}
	if err := checkDev(dev); err != nil {
		return err
	}
	if via != "" {
		if _, err := checkAddr("via", via); err != nil {
			return err
		}
	}
	return nil
}
