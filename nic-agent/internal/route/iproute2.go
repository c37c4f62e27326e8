package route

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
)

// Protocol is the rtm_protocol number stamped on every route the agent programs, so that
// List and Delete see only the agent's own routes and an operator can spot them
// (`ip -6 route show proto 200`). 200 is outside the numbers iproute2 and routing daemons use.
const Protocol = 200

// dumpAttempts bounds retries of a route dump the kernel reports as interrupted (the table
// changed while it was read); this is the one place such dumps are retried.
const dumpAttempts = 3

// runFunc runs ip with args and returns its stdout; on failure the error carries stderr.
type runFunc func(ctx context.Context, args []string) ([]byte, error)

// IPRoute programs routes with the iproute2 `ip` command, optionally inside a network namespace.
type IPRoute struct {
	netns string
	run   runFunc
}

var _ Programmer = (*IPRoute)(nil)

// NewIPRoute returns a programmer for the namespace netns ("" = the agent's own namespace).
func NewIPRoute(netns string) *IPRoute {
	r := &IPRoute{netns: netns}
	r.run = r.exec
	return r
}

// cmdError is a failed ip invocation with what it printed on stderr.
type cmdError struct {
	args   []string
	stderr string
	err    error
}

func (e *cmdError) Error() string {
	return fmt.Sprintf("ip %s: %s (%v)", strings.Join(e.args, " "), e.stderr, e.err)
}

func (e *cmdError) Unwrap() error { return e.err }

func (r *IPRoute) exec(ctx context.Context, args []string) ([]byte, error) {
	if r.netns != "" {
		args = append([]string{"-n", r.netns}, args...)
	}
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, "ip", args...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, &cmdError{args: args, stderr: strings.TrimSpace(stderr.String()), err: err}
	}
	return stdout.Bytes(), nil
}

// classify adds a sentinel to the errors callers act on, judged from ip's message.
func classify(err error) error {
	var ce *cmdError
	if !errors.As(err, &ce) {
		return err
	}
	switch {
	case strings.Contains(ce.stderr, "No such process"):
		return fmt.Errorf("%w: %w", ErrNoRoute, err)
	case strings.Contains(ce.stderr, "not supported"), strings.Contains(ce.stderr, "Unknown encap"):
		return fmt.Errorf("%w: %w", ErrUnsupported, err)
	}
	return err
}

// ReplaceEncap runs `ip -6 route replace DST encap seg6 mode encap.red segs C0,C1 dev DEV [via GW]`.
func (r *IPRoute) ReplaceEncap(ctx context.Context, dstPrefix string, carriers []string, dev, via string) error {
	if err := checkEncap(dstPrefix, carriers, dev, via); err != nil {
		return err
	}
	args := []string{"-6", "route", "replace", dstPrefix,
		"encap", "seg6", "mode", "encap.red", "segs", strings.Join(carriers, ","), "dev", dev}
	if via != "" {
		args = append(args, "via", via)
	}
	args = append(args, "proto", strconv.Itoa(Protocol))
	if _, err := r.run(ctx, args); err != nil {
		return fmt.Errorf("replace route to %s: %w", dstPrefix, classify(err))
	}
	return nil
}

// Delete removes the agent's route to dstPrefix.
func (r *IPRoute) Delete(ctx context.Context, dstPrefix string) error {
	if _, err := checkPrefix("dst", dstPrefix); err != nil {
		return err
	}
	if _, err := r.run(ctx, []string{"-6", "route", "del", dstPrefix, "proto", strconv.Itoa(Protocol)}); err != nil {
		return fmt.Errorf("delete route to %s: %w", dstPrefix, classify(err))
	}
	return nil
}

// jsonRoute is the subset of `ip -j -6 route show` output that List reads.
type jsonRoute struct {
	Dst     string   `json:"dst"`
	Encap   string   `json:"encap"`
	Mode    string   `json:"mode"`
	Segs    []string `json:"segs"`
	Gateway string   `json:"gateway"`
	Dev     string   `json:"dev"`
}

// List returns the agent's SRv6 encapsulating routes in the order the kernel dumps them.
func (r *IPRoute) List(ctx context.Context) ([]Route, error) {
	args := []string{"-j", "-6", "route", "show", "proto", strconv.Itoa(Protocol)}
	var out []byte
	var err error
	for attempt := 1; attempt <= dumpAttempts; attempt++ {
		out, err = r.run(ctx, args)
		var ce *cmdError
		if err == nil || !errors.As(err, &ce) || !strings.Contains(ce.stderr, "Dump was interrupted") {
			break
		}
	}
	if err != nil {
		return nil, fmt.Errorf("list routes: %w", classify(err))
	}
	return parseRoutes(out)
}

func parseRoutes(out []byte) ([]Route, error) {
	if len(bytes.TrimSpace(out)) == 0 {
		return nil, nil // older iproute2 prints nothing, not [], for an empty table
	}
	var raw []jsonRoute
	if err := json.Unmarshal(out, &raw); err != nil {
		return nil, fmt.Errorf("list routes: unreadable ip -j output: %w", err)
	}
	var routes []Route
	for _, j := range raw {
		if j.Encap != "seg6" {
			continue
		}
		routes = append(routes, Route{Dst: normalizeDst(j.Dst), Carriers: j.Segs, Dev: j.Dev, Via: j.Gateway})
	}
	return routes, nil
}

// normalizeDst writes ip's "default" and bare host addresses as prefixes, the form callers pass in.
func normalizeDst(dst string) string {
	switch {
	case dst == "default":
		return "::/0"
	case !strings.Contains(dst, "/"):
		return dst + "/128"
	}
	return dst
}
