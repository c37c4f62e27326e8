// Package kernel makes a Linux network namespace hold a Weft switch's configuration through
// netlink, and reads it back: the kernel forms are the ones the namespace lab proved
// (lab-topologies/netns/README.md): SIDs on an always-up anchor veth, uA at <block>:<fn>::/48,
// a tenant VRF as a routing table plus ip rules, EV tables selected by nftables marks.
package kernel

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"sync"

	"github.com/vishvananda/netlink"
	"github.com/vishvananda/netns"
	"weft.io/switch-agent/internal/model"
)

const (
	// Anchor is the always-up device seg6local routes hang on; AnchorPeer its veth peer. The
	// kernel deletes a route with its device when that goes down, lo drops the packets and
	// this kernel has no dummy driver: a veth pair that never leaves the namespace remains.
	Anchor     = "sid0"
	AnchorPeer = "sid1"
)

// ErrRefused wraps every error the kernel returned while applying: the gNMI layer answers
// FAILED_PRECONDITION for it (INVALID_ARGUMENT is for payloads refused before the kernel).
var ErrRefused = errors.New("kernel refused")

// Kernel is one switch namespace, operated from wherever the agent runs.
type Kernel struct {
	ns     netns.NsHandle
	nsName string // for nft (ip netns exec); empty when the agent runs inside the namespace
	h      *netlink.Handle
	ports  Ports

	mu     sync.Mutex
	labels labels
	nft    *string // the nft script last applied; nil before the first apply
	// running is the configuration of the last successful Apply: what Watch restores when a
	// port comes back up. Get never answers from it.
	running *model.Config

	watchMu  sync.Mutex
	watching bool
	watchers map[chan struct{}]bool
}

// LinkChanges returns a channel that receives (coalesced) whenever a port's link state changes,
// and a function to stop receiving; the channel is nil when Watch is not running, and callers
// must then poll.
func (k *Kernel) LinkChanges() (<-chan struct{}, func()) {
	k.watchMu.Lock()
	defer k.watchMu.Unlock()
	if !k.watching {
		return nil, func() {}
	}
	ch := make(chan struct{}, 1)
	if k.watchers == nil {
		k.watchers = map[chan struct{}]bool{}
	}
	k.watchers[ch] = true
	return ch, func() {
		k.watchMu.Lock()
		defer k.watchMu.Unlock()
		delete(k.watchers, ch)
	}
}

func (k *Kernel) notifyLinkChange() {
	k.watchMu.Lock()
	defer k.watchMu.Unlock()
	for ch := range k.watchers {
		select {
		case ch <- struct{}{}:
		default: // one pending signal is enough: the receiver reads the whole state
		}
	}
}

func (k *Kernel) setWatching(on bool) {
	k.watchMu.Lock()
	defer k.watchMu.Unlock()
	k.watching = on
}

// labels are the names the kernel has no place for (a locator's name, a VRF's name and
// description); everything with a kernel meaning is read back from the kernel.
type labels struct {
	locator string
	vrfs    map[string]vrfLabel // by name
}

type vrfLabel struct {
	table       int
	description string
}

// Open attaches to the named namespace (/var/run/netns/<name>), or to the agent's own when
// nsName is empty, and prepares it as a switch: sysctls, loopback up, the SID anchor.
func Open(nsName string, ports Ports) (*Kernel, error) {
	var ns netns.NsHandle
	var err error
	if nsName == "" {
		ns, err = netns.Get()
	} else {
		ns, err = netns.GetFromName(nsName)
	}
	if err != nil {
		return nil, fmt.Errorf("namespace %q: %w", nsName, err)
	}
	h, err := netlink.NewHandleAt(ns)
	if err != nil {
		ns.Close()
		return nil, fmt.Errorf("netlink in namespace %q: %w", nsName, err)
	}
	k := &Kernel{ns: ns, nsName: nsName, h: h, ports: ports, labels: labels{locator: "weft", vrfs: map[string]vrfLabel{}}}
	if err := k.prepare(); err != nil {
		k.Close()
		return nil, err
	}
	return k, nil
}

// Close releases the namespace handle and netlink sockets.
func (k *Kernel) Close() {
	k.h.Close()
	k.ns.Close()
}

// Ports is the port map the agent was started with.
func (k *Kernel) Ports() Ports { return k.ports }

// HasPort tells whether a fabric port exists on this switch (mapped and present in the kernel).
func (k *Kernel) HasPort(fabric string) bool {
	name, ok := k.ports.Kernel(fabric)
	if !ok {
		return false
	}
	_, err := k.h.LinkByName(name)
	return err == nil
}

// switchSysctls are what the lab sets in every switch namespace (LabScript.SWITCH_SYSCTLS).
var switchSysctls = []string{
	"net/ipv6/conf/all/forwarding", "net/ipv6/conf/default/forwarding",
	"net/ipv6/conf/all/seg6_enabled", "net/ipv6/conf/default/seg6_enabled",
}

func (k *Kernel) prepare() error {
	if err := k.anchor(); err != nil {
		return err
	}
	return k.sysctls()
}

func (k *Kernel) anchor() error {
	if _, err := k.h.LinkByName(Anchor); err != nil {
		veth := &netlink.Veth{LinkAttrs: netlink.LinkAttrs{Name: Anchor}, PeerName: AnchorPeer}
		if err := k.h.LinkAdd(veth); err != nil {
			return fmt.Errorf("anchor %s/%s: %w", Anchor, AnchorPeer, err)
		}
	}
	for _, name := range []string{"lo", Anchor, AnchorPeer} {
		l, err := k.h.LinkByName(name)
		if err != nil {
			return fmt.Errorf("link %s: %w", name, err)
		}
		if err := k.h.LinkSetUp(l); err != nil {
			return fmt.Errorf("link %s up: %w", name, err)
		}
	}
	return nil
}

// sysctls turns on IPv6 forwarding and SRv6 everywhere, and per link seg6_enabled (the kernel
// takes the minimum of "all" and the link's), with accept_dad off like the lab.
//
// /proc/sys/net answers for the network namespace of the thread that opens it, so the writes
// run on a locked OS thread moved into the switch's namespace with setns(2); the thread is never
// unlocked, so the Go runtime discards it instead of reusing it in the wrong namespace. This
// needs no ip(8) or sysctl(8) binary (containerlab images may lack them) and no fork per write.
func (k *Kernel) sysctls() error {
	links, err := k.h.LinkList()
	if err != nil {
		return fmt.Errorf("links: %w", err)
	}
	keys := append([]string{}, switchSysctls...)
	keys = append(keys, "net/ipv6/conf/all/accept_dad", "net/ipv6/conf/default/accept_dad")
	values := map[string]string{"net/ipv6/conf/all/accept_dad": "0", "net/ipv6/conf/default/accept_dad": "0"}
	for _, l := range links {
		keys = append(keys, "net/ipv6/conf/"+l.Attrs().Name+"/seg6_enabled")
	}
	done := make(chan error, 1)
	go func() {
		runtime.LockOSThread() // no Unlock: the thread ends with the goroutine
		if k.nsName != "" {
			if err := netns.Set(k.ns); err != nil {
				done <- fmt.Errorf("setns: %w", err)
				return
			}
		}
		for _, key := range keys {
			v, ok := values[key]
			if !ok {
				v = "1"
			}
			if err := os.WriteFile("/proc/sys/"+key, []byte(v), 0o644); err != nil {
				done <- fmt.Errorf("sysctl %s=%s: %w", key, v, err)
				return
			}
		}
		done <- nil
	}()
	return <-done
}

func (k *Kernel) link(name string) (netlink.Link, error) {
	l, err := k.h.LinkByName(name)
	if err != nil {
		return nil, fmt.Errorf("link %s: %w", name, err)
	}
	return l, nil
}

func (k *Kernel) linkNames() (map[int]string, error) {
	links, err := k.h.LinkList()
	if err != nil {
		return nil, fmt.Errorf("links: %w", err)
	}
	out := map[int]string{}
	for _, l := range links {
		out[l.Attrs().Index] = l.Attrs().Name
	}
	return out, nil
}
