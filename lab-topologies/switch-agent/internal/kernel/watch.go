package kernel

import (
	"context"
	"fmt"
	"log"

	"github.com/vishvananda/netlink"
)

// Watch re-installs the running configuration when a port comes back up, as a NOS does: the
// kernel drops a port's IPv6 addresses and every route through it when the port goes down
// (multipath routes lose that next hop) and gives nothing back on up. Only addresses, routes,
// rules and nftables are restored; admin state is left as whoever changed it set it.
// It returns when ctx ends or the subscription fails.
func (k *Kernel) Watch(ctx context.Context, logger *log.Logger) error {
	ch := make(chan netlink.LinkUpdate, 64)
	errc := make(chan error, 1)
	ns := k.ns
	err := netlink.LinkSubscribeWithOptions(ch, ctx.Done(), netlink.LinkSubscribeOptions{
		Namespace: &ns,
		ErrorCallback: func(err error) {
			select {
			case errc <- err:
			default:
			}
		},
	})
	if err != nil {
		return fmt.Errorf("link updates: %w", err)
	}
	k.setWatching(true)
	defer k.setWatching(false)
	up := map[int]bool{}
	if links, err := k.h.LinkList(); err == nil {
		for _, l := range links {
			up[l.Attrs().Index] = l.Attrs().Flags&(1<<0) != 0
		}
	}
	for {
		select {
		case <-ctx.Done():
			return nil
		case err := <-errc:
			return fmt.Errorf("link updates: %w", err)
		case u, ok := <-ch:
			if !ok {
				return nil
			}
			a := u.Link.Attrs()
			isUp := a.Flags&(1<<0) != 0
			was := up[a.Index]
			up[a.Index] = isUp
			if _, port := k.ports.Fabric(a.Name); !port {
				continue
			}
			k.notifyLinkChange()
			if !isUp || was {
				continue
			}
			if err := k.reapply(); err != nil {
				logger.Printf("%s up: re-installing the running configuration: %v", a.Name, err)
			}
		}
	}
}

// reapply installs the last applied configuration again without touching admin state; a route
// through a port that is still down is skipped (the kernel refuses it) and comes with that port.
func (k *Kernel) reapply() error {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.running == nil {
		return nil
	}
	d, err := k.derive(*k.running)
	if err != nil {
		return err
	}
	d.up = map[string]bool{}
	links, err := k.h.LinkList()
	if err != nil {
		return err
	}
	down := map[string]bool{}
	for _, l := range links {
		down[l.Attrs().Name] = l.Attrs().Flags&(1<<0) == 0
	}
	for name := range d.addrs {
		if down[name] {
			delete(d.addrs, name)
		}
	}
	// Routes keep the next hops whose ports are up (as the kernel left ECMP routes); a route with
	// none left is not wanted now, and the kernel already removed it.
	var routes []kRoute
	for _, r := range d.routes {
		if r.seg != nil {
			if !down[r.seg.dev] && !down[r.seg.oif] {
				routes = append(routes, r)
			}
			continue
		}
		var hops []hop
		for _, h := range r.hops {
			if !down[h.dev] {
				hops = append(hops, h)
			}
		}
		if len(hops) > 0 {
			r.hops = hops
			routes = append(routes, r)
		}
	}
	d.routes = routes
	for _, step := range []func(desired) error{k.applyAddrs, k.applyRoutes, k.applyRules, k.applyNft} {
		if err := step(d); err != nil {
			return err
		}
	}
	return nil
}
