package host

import (
	"errors"
	"fmt"
	"net"

	"github.com/vishvananda/netlink"
	"golang.org/x/sys/unix"

	"weft.io/nic-agent/internal/route"
)

// DetectUplink fills what u leaves empty from the namespace behind h: the device and gateway of
// the IPv6 default route (not one of the agent's own), and the first global address on that device.
func DetectUplink(h *netlink.Handle, u Uplink) (Uplink, error) {
	if u.Dev == "" {
		routes, err := h.RouteListFiltered(netlink.FAMILY_V6, &netlink.Route{Table: unix.RT_TABLE_MAIN}, netlink.RT_FILTER_TABLE)
		if err != nil && !errors.Is(err, netlink.ErrDumpInterrupted) {
			return u, fmt.Errorf("dev: reading the default route: %w", err)
		}
		for _, r := range routes {
			if r.Protocol == route.Protocol || (r.Dst != nil && !isDefault(r.Dst)) {
				continue
			}
			link, err := h.LinkByIndex(r.LinkIndex)
			if err != nil {
				continue
			}
			u.Dev = link.Attrs().Name
			if u.Via == "" && r.Gw != nil {
				u.Via = r.Gw.String()
			}
			break
		}
		if u.Dev == "" {
			return u, errors.New("dev: no IPv6 default route to learn the uplink from; set --dev (and --via)")
		}
	}
	if u.Address == "" {
		link, err := h.LinkByName(u.Dev)
		if err != nil {
			return u, fmt.Errorf("dev: %q: %w", u.Dev, err)
		}
		addrs, err := h.AddrList(link, netlink.FAMILY_V6)
		if err != nil {
			return u, fmt.Errorf("address: listing addresses of %s: %w", u.Dev, err)
		}
		for _, a := range addrs {
			if a.IP.IsGlobalUnicast() {
				u.Address = a.IP.String()
				break
			}
		}
		if u.Address == "" {
			return u, fmt.Errorf("address: %s has no global IPv6 address; set --address", u.Dev)
		}
	}
	return u, nil
}

func isDefault(n *net.IPNet) bool {
	ones, _ := n.Mask.Size()
	return ones == 0
}
