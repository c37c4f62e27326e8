// Package scheduler is the agent's client of scheduler-api's agent contract
// (contracts/openapi/scheduler-api.yaml, tag agents): the paths long-poll and flow reports.
package scheduler

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"weft.io/nic-agent/internal/profile"
)

// ErrNotANIC means scheduler-api does not know this NIC (404): a configuration error, retried
// slowly because the fabric may still gain the NIC.
var ErrNotANIC = errors.New("not a NIC of the current fabric")

// ErrStarting means scheduler-api has no fabric yet (503).
var ErrStarting = errors.New("scheduler-api is starting")

// Client talks to one scheduler-api for one NIC.
type Client struct {
	base  *url.URL
	nic   string
	token string
	http  *http.Client
}

// maxProfileBytes bounds what the agent reads of one answer, so a broken server cannot exhaust it.
const maxProfileBytes = 16 << 20

// New returns a client for base (e.g. http://127.0.0.1:8082) acting for nic with an agent token.
func New(base, nic, token string) (*Client, error) {
	u, err := url.Parse(base)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("server: %q is not an http(s) URL", base)
	}
	if nic == "" {
		return nil, errors.New("nic: required")
	}
	// No overall timeout: long-polls are bounded by their context; connections are kept alive.
	return &Client{base: u, nic: nic, token: token, http: &http.Client{}}, nil
}

// Poll is the answer to one long-poll.
type Poll struct {
	Changed bool             // a profile newer than since arrived
	Profile *profile.Profile // when Changed
	Version int64            // the NIC's current version (Weft-Version header on 204/304)
}

// Paths long-polls GET /v1/agents/{nic}/paths. since < 0 asks for the current profile at once.
func (c *Client) Paths(ctx context.Context, since int64, wait time.Duration) (Poll, error) {
	q := url.Values{}
	if since >= 0 {
		q.Set("since", strconv.FormatInt(since, 10))
		q.Set("wait", strconv.Itoa(int(wait/time.Second)))
	}
	u := c.endpoint("paths")
	u.RawQuery = q.Encode()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return Poll{}, err
	}
	c.authorize(req)
	resp, err := c.http.Do(req)
	if err != nil {
		return Poll{}, fmt.Errorf("GET %s: %w", u.Path, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxProfileBytes))
	if err != nil {
		return Poll{}, fmt.Errorf("GET %s: reading the answer: %w", u.Path, err)
	}
	version := int64(-1)
	if h := resp.Header.Get("Weft-Version"); h != "" {
		if v, err := strconv.ParseInt(h, 10, 64); err == nil {
			version = v
		}
	}
	switch resp.StatusCode {
	case http.StatusOK:
		var p profile.Profile
		if err := json.Unmarshal(body, &p); err != nil {
			return Poll{}, fmt.Errorf("GET %s: profile is not JSON of the contract: %w", u.Path, err)
		}
		if p.NIC != c.nic {
			return Poll{}, fmt.Errorf("nic: profile is for %q, this agent is %q", p.NIC, c.nic)
		}
		return Poll{Changed: true, Profile: &p, Version: p.Version}, nil
	case http.StatusNotModified:
		return Poll{Version: version}, nil
	case http.StatusNoContent:
		// The NIC never had a path: an empty profile at version 0.
		return Poll{Changed: since != 0, Profile: &profile.Profile{NIC: c.nic}, Version: 0}, nil
	case http.StatusNotFound:
		return Poll{}, fmt.Errorf("GET %s: %w: %s", u.Path, ErrNotANIC, problem(body))
	case http.StatusServiceUnavailable:
		return Poll{}, fmt.Errorf("GET %s: %w: %s", u.Path, ErrStarting, problem(body))
	}
	return Poll{}, fmt.Errorf("GET %s: HTTP %d: %s", u.Path, resp.StatusCode, problem(body))
}

// Report posts one flow report (POST /v1/agents/{nic}/reports).
func (c *Client) Report(ctx context.Context, r any) error {
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	u := c.endpoint("reports")
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u.String(), bytes.NewReader(b))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	c.authorize(req)
	resp, err := c.http.Do(req)
	if err != nil {
		return fmt.Errorf("POST %s: %w", u.Path, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	if resp.StatusCode != http.StatusAccepted {
		return fmt.Errorf("POST %s: HTTP %d: %s", u.Path, resp.StatusCode, problem(body))
	}
	return nil
}

// endpoint is base + /v1/agents/{nic}/ + what, with the NIC id escaped.
func (c *Client) endpoint(what string) *url.URL {
	u := c.base.JoinPath("v1", "agents", c.nic, what)
	if !strings.HasPrefix(u.Path, "/") {
		u.Path = "/" + u.Path
	}
	return u
}

func (c *Client) authorize(req *http.Request) {
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
}

// problem shortens an RFC 9457 body to its detail and field, else the raw text.
func problem(body []byte) string {
	var p struct {
		Detail string `json:"detail"`
		Field  string `json:"field"`
	}
	if json.Unmarshal(body, &p) == nil && p.Detail != "" {
		if p.Field != "" {
			return p.Field + ": " + p.Detail
		}
		return p.Detail
	}
	if len(body) > 200 {
		body = body[:200]
	}
	return string(bytes.TrimSpace(body))
}
