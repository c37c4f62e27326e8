package kernel

import (
	"fmt"
	"sort"

	"github.com/vishvananda/netlink"
)

// PortStats is one fabric port's state for telemetry: interface counters, oper-status, and
// its root qdisc as OpenConfig queue "0" (a TBF on the port shows its drops and backlog here).
type PortStats struct {
	Port       string
	OperStatus string // OpenConfig: UP, DOWN, LOWER_LAYER_DOWN, DORMANT, NOT_PRESENT, UNKNOWN
	Counters   map[string]uint64
	Queue      map[string]uint64 // transmit-pkts, transmit-octets, dropped-pkts, backlog-octets
}

// Stats samples every fabric port: one link dump and one qdisc dump for the namespace.
func (k *Kernel) Stats() ([]PortStats, error) {
	links, err := k.h.LinkList()
	if err != nil {
		return nil, fmt.Errorf("links: %w", err)
	}
	// One dump for every qdisc of the namespace, not one per port: this runs every sample interval.
	qs, err := k.h.QdiscList(nil)
	if err != nil {
		return nil, fmt.Errorf("qdiscs: %w", err)
	}
	roots := map[int]map[string]uint64{}
	for _, q := range qs {
		qa := q.Attrs()
		if qa.Parent != netlink.HANDLE_ROOT || qa.Statistics == nil {
			continue
		}
		m := map[string]uint64{}
		if b := qa.Statistics.Basic; b != nil {
			m["transmit-octets"], m["transmit-pkts"] = b.Bytes, uint64(b.Packets)
		}
		if qq := qa.Statistics.Queue; qq != nil {
			m["dropped-pkts"], m["backlog-octets"] = uint64(qq.Drops), uint64(qq.Backlog)
		}
		roots[qa.LinkIndex] = m
	}
	var out []PortStats
	for _, l := range links {
		a := l.Attrs()
		port, ok := k.ports.Fabric(a.Name)
		if !ok || a.Name == "lo" {
			continue
		}
		s := PortStats{Port: port, OperStatus: operStatus(a), Counters: map[string]uint64{}}
		if st := a.Statistics; st != nil {
			s.Counters["in-octets"], s.Counters["in-pkts"] = st.RxBytes, st.RxPackets
			s.Counters["in-discards"], s.Counters["in-errors"] = st.RxDropped, st.RxErrors
			s.Counters["out-octets"], s.Counters["out-pkts"] = st.TxBytes, st.TxPackets
			s.Counters["out-discards"], s.Counters["out-errors"] = st.TxDropped, st.TxErrors
		}
		if q, ok := roots[a.Index]; ok {
			s.Queue = q
		}
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Port < out[j].Port })
	return out, nil
}

func operStatus(a *netlink.LinkAttrs) string {
	if a.Flags&(1<<0) == 0 { // admin down
		return "DOWN"
	}
	switch a.OperState {
	case netlink.OperUp:
		return "UP"
	case netlink.OperLowerLayerDown:
		return "LOWER_LAYER_DOWN"
	case netlink.OperDormant:
		return "DORMANT"
	case netlink.OperNotPresent:
		return "NOT_PRESENT"
	case netlink.OperDown:
		return "DOWN"
	}
	return "UNKNOWN"
}
