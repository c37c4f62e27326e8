package host

import (
	"context"
	"errors"
	"fmt"
	"net/netip"

	"weft.io/nic-agent/internal/route"
)

// Changes counts what one reconciliation did to the kernel.
type Changes struct {
	Replaced int `json:"replaced"`
	Deleted  int `json:"deleted"`
	Kept     int `json:"kept"`
}

// Failure is a route the kernel refused; the rest were still applied.
type Failure struct {
	Dst string `json:"dst"`
	Err string `json:"error"`
}

// Reconcile brings the agent's routes to want. Routes the kernel already holds exactly are not
// touched (so a restarted agent changes nothing that is still right); the others are replaced
// in place, which swaps a destination's next hops without a moment with no route; routes of
// the agent's protocol to destinations no longer wanted are deleted last.
func Reconcile(ctx context.Context, prog route.Programmer, want []route.Route) (Changes, []Failure, error) {
	have, err := prog.List(ctx)
	if err != nil {
		return Changes{}, nil, err
	}
	held := make(map[string]route.Route, len(have))
	for _, r := range have {
		held[r.Dst] = r
	}
	var ch Changes
	var failed []Failure
	wanted := make(map[string]bool, len(want))
	for _, r := range want {
		wanted[r.Dst] = true
		if h, ok := held[r.Dst]; ok && route.Equal(h, r) {
			ch.Kept++
			continue
		}
		if err := prog.Replace(ctx, r); err != nil {
			failed = append(failed, Failure{Dst: r.Dst, Err: err.Error()})
			continue
		}
		ch.Replaced++
	}
	for _, h := range have {
		if wanted[h.Dst] {
			continue
		}
		if err := prog.Delete(ctx, h.Dst); err != nil && !errors.Is(err, route.ErrNoRoute) {
			failed = append(failed, Failure{Dst: h.Dst, Err: fmt.Sprintf("delete: %v", err)})
			continue
		}
		ch.Deleted++
	}
	return ch, failed, nil
}

// ReconcileSteering brings the agent's EV steering to want in the same way: port tables and rules
// the kernel holds exactly are kept; a changed port table is replaced before the rules that use it
// are added; rules no longer wanted are deleted, then the tables no rule uses.
func ReconcileSteering(ctx context.Context, s route.Steerer, want route.Steering) (Changes, []Failure, error) {
	have, err := s.ListSteering(ctx)
	if err != nil {
		return Changes{}, nil, err
	}
	var ch Changes
	var failed []Failure
	heldTables := map[int]route.PortTable{}
	for _, t := range have.Tables {
		heldTables[t.Table] = t
	}
	wantTables := map[int]bool{}
	badTables := map[int]bool{}
	for _, t := range want.Tables {
		wantTables[t.Table] = true
		if h, ok := heldTables[t.Table]; ok && h.Dev == t.Dev && sameGateway(h.Via, t.Via) {
			ch.Kept++
			continue
		}
		if err := s.ReplaceTable(ctx, t); err != nil {
			failed = append(failed, Failure{Dst: tableName(t.Table), Err: err.Error()})
			badTables[t.Table] = true
			continue
		}
		ch.Replaced++
	}
	held := map[route.Steer]bool{}
	for _, r := range have.Rules {
		held[normalSteer(r)] = true
	}
	wanted := map[route.Steer]bool{}
	for _, r := range want.Rules {
		r = normalSteer(r)
		wanted[r] = true
		switch {
		case held[r]:
			ch.Kept++
		case badTables[r.Table]:
			// Without its table the rule would send the packets nowhere: the main table still routes them.
			failed = append(failed, Failure{Dst: steerName(r), Err: tableName(r.Table) + " could not be programmed"})
		default:
			if err := s.AddSteer(ctx, r); err != nil {
				failed = append(failed, Failure{Dst: steerName(r), Err: err.Error()})
				continue
			}
			ch.Replaced++
		}
	}
	for _, r := range have.Rules {
		if r = normalSteer(r); wanted[r] {
			continue
		}
		if err := s.DeleteSteer(ctx, r); err != nil && !errors.Is(err, route.ErrNoRoute) {
			failed = append(failed, Failure{Dst: steerName(r), Err: fmt.Sprintf("delete: %v", err)})
			continue
		}
		ch.Deleted++
	}
	for _, t := range have.Tables {
		if wantTables[t.Table] {
			continue
		}
		if err := s.DeleteTable(ctx, t.Table); err != nil && !errors.Is(err, route.ErrNoRoute) {
			failed = append(failed, Failure{Dst: tableName(t.Table), Err: fmt.Sprintf("delete: %v", err)})
			continue
		}
		ch.Deleted++
	}
	return ch, failed, nil
}

// normalSteer writes the peer address in one form, so rules compare as addresses, not text.
func normalSteer(s route.Steer) route.Steer {
	if a, err := netip.ParseAddr(s.Peer); err == nil {
		s.Peer = a.String()
	}
	return s
}

func sameGateway(a, b string) bool {
	x, err1 := netip.ParseAddr(a)
	y, err2 := netip.ParseAddr(b)
	return a == b || err1 == nil && err2 == nil && x == y
}

func steerName(s route.Steer) string {
	return fmt.Sprintf("udp sport %d to %s", s.Sport, s.Peer)
}

func tableName(table int) string {
	return fmt.Sprintf("port table %#x", table)
}
