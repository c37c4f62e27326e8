package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"weft.io/nic-agent/internal/agent"
	"weft.io/nic-agent/internal/evpub"
	"weft.io/nic-agent/internal/host"
)

func runStatus(args []string, stdout, stderr io.Writer) int {
	v, code, ok := settings("status", "[--socket PATH]", args, stderr, func(*pflag.FlagSet) {})
	if !ok {
		return code
	}
	body, err := askAgent(v.GetString("socket"), agent.PathStatus)
	if err != nil {
		return fail(stderr, "status", err, exitError)
	}
	var s agent.Status
	if err := json.Unmarshal(body, &s); err != nil {
		return fail(stderr, "status", fmt.Errorf("agent answered something else than its status: %w", err), exitError)
	}
	fmt.Fprintf(stdout, "nic %s: %s, version %d", s.NIC, s.State, s.Version)
	if !s.AppliedAt.IsZero() {
		fmt.Fprintf(stdout, " applied %s", s.AppliedAt.Format(time.RFC3339))
	}
	fmt.Fprintln(stdout)
	if s.LastError != "" {
		fmt.Fprintf(stdout, "  unreachable (%d failures, retry in %s): %s\n", s.Failures, s.RetryIn, s.LastError)
	}
	for _, r := range s.Applied.Routes {
		var nh []string
		for _, n := range r.Nexthops {
			text := fmt.Sprintf("%s w%d", strings.Join(n.Carriers, ","), n.Weight)
			if n.Dev != "" { // a next hop out another port of a multi-plane NIC
				text += " dev " + n.Dev
			}
			nh = append(nh, text)
		}
		fmt.Fprintf(stdout, "  route %s dev %s via %s: %s\n", r.Dst, r.Dev, r.Via, strings.Join(nh, " | "))
	}
	for _, e := range s.Applied.EV {
		ws := []string{fmt.Sprint(e.Ports)} // a state file written before weights has none
		if len(e.Weights) > 0 {
			ws = ws[:0]
		}
		for _, w := range e.Weights {
			text := fmt.Sprintf("%d x%d (weight %d)", w.Port, w.Slots, w.Weight)
			if w.Link != "" { // leaves by another port of a multi-plane NIC
				text += fmt.Sprintf(" port %s dev %s", w.Link, w.Dev)
			}
			ws = append(ws, text)
		}
		fmt.Fprintf(stdout, "  ev %s (%s): %s\n", e.Peer, e.Dst, strings.Join(ws, ", "))
	}
	for _, r := range s.Applied.Rejected {
		fmt.Fprintf(stdout, "  rejected %s\n", r)
	}
	for _, f := range s.KernelFailures {
		fmt.Fprintf(stdout, "  kernel refused %s: %s\n", f.Dst, f.Err)
	}
	for _, id := range s.ProbeBad {
		fmt.Fprintf(stdout, "  assumed bad by probes: %s\n", id)
	}
	return exitOK
}

func runEVPorts(args []string, stdout, stderr io.Writer) int {
	v, code, ok := settings("ev-ports", "[--socket PATH]", args, stderr, func(*pflag.FlagSet) {})
	if !ok {
		return code
	}
	body, err := askAgent(v.GetString("socket"), agent.PathEV)
	if err != nil {
		return fail(stderr, "ev-ports", err, exitError)
	}
	var evs []host.EVPorts
	if err := json.Unmarshal(body, &evs); err != nil {
		return fail(stderr, "ev-ports", fmt.Errorf("agent answered something else than EV ports: %w", err), exitError)
	}
	_, _ = stdout.Write(evpub.Format(evs))
	return exitOK
}

// askAgent GETs path from the running agent over its unix socket.
func askAgent(socket, path string) ([]byte, error) {
	c := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			return (&net.Dialer{}).DialContext(ctx, "unix", socket)
		}}}
	resp, err := c.Get("http://agent" + path)
	if err != nil {
		return nil, fmt.Errorf("socket: is the agent running? %w", err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("agent answered HTTP %d", resp.StatusCode)
	}
	return b, nil
}
