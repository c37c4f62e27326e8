package host

import (
	"context"
	"errors"
	"fmt"

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
