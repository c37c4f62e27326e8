package scheduler

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync/atomic"
	"time"

	"weft.io/nic-agent/internal/profile"
)

// ErrNoStream means the server has no profile stream (an older scheduler-api): use the long-poll.
var ErrNoStream = errors.New("scheduler-api offers no profile stream")

// streamSilence is how long a stream may stay silent before the agent takes it for dead: the
// server sends a comment every 30 s.
const streamSilence = 75 * time.Second

// Stream follows GET /v1/agents/{nic}/paths/stream: opened runs once the server accepted the
// stream, onProfile for every profile event. It returns when the stream ends (nil: the server
// closed it, reconnect), fails, or ctx ends. since < 0 asks for the current profile at once.
func (c *Client) Stream(ctx context.Context, since int64, opened func(), onProfile func(*profile.Profile)) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	u := c.endpoint("paths/stream")
	if since >= 0 {
		u.RawQuery = "since=" + strconv.FormatInt(since, 10)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "text/event-stream")
	c.authorize(req)
	resp, err := c.http.Do(req)
	if err != nil {
		return fmt.Errorf("GET %s: %w", u.Path, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
		switch resp.StatusCode {
		case http.StatusNotFound:
			if isProblemOfField(body, "nic") {
				return fmt.Errorf("GET %s: %w: %s", u.Path, ErrNotANIC, problem(body))
			}
			return fmt.Errorf("GET %s: %w", u.Path, ErrNoStream)
		case http.StatusMethodNotAllowed, http.StatusNotAcceptable, http.StatusNotImplemented:
			return fmt.Errorf("GET %s: %w", u.Path, ErrNoStream)
		case http.StatusServiceUnavailable:
			return fmt.Errorf("GET %s: %w: %s", u.Path, ErrStarting, problem(body))
		}
		return fmt.Errorf("GET %s: HTTP %d: %s", u.Path, resp.StatusCode, problem(body))
	}
	opened()
	// A stream that goes silent (a peer or middlebox gone without a FIN) is cut, so the agent
	// reconnects instead of waiting forever.
	var silent atomic.Bool
	watchdog := time.AfterFunc(streamSilence, func() {
		silent.Store(true)
		cancel()
	})
	defer watchdog.Stop()
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 64<<10), maxProfileBytes)
	var event string
	var data bytes.Buffer
	for sc.Scan() {
		watchdog.Reset(streamSilence)
		line := sc.Bytes()
		switch {
		case len(line) == 0: // end of an event
			if event == "profile" && data.Len() > 0 {
				var p profile.Profile
				if err := json.Unmarshal(data.Bytes(), &p); err != nil {
					return fmt.Errorf("GET %s: profile event is not JSON of the contract: %w", u.Path, err)
				}
				if p.NIC != c.nic {
					return fmt.Errorf("nic: profile is for %q, this agent is %q", p.NIC, c.nic)
				}
				onProfile(&p)
			}
			event = ""
			data.Reset()
		case line[0] == ':': // comment (heartbeat)
		case bytes.HasPrefix(line, []byte("event:")):
			event = string(bytes.TrimSpace(line[len("event:"):]))
		case bytes.HasPrefix(line, []byte("data:")):
			if data.Len() > 0 {
				data.WriteByte('\n')
			}
			data.Write(bytes.TrimPrefix(line[len("data:"):], []byte(" ")))
		}
	}
	if err := sc.Err(); err != nil {
		if silent.Load() {
			return fmt.Errorf("GET %s: no event or heartbeat for %s", u.Path, streamSilence)
		}
		return fmt.Errorf("GET %s: %w", u.Path, err)
	}
	return nil
}

func isProblemOfField(body []byte, field string) bool {
	var p struct {
		Field string `json:"field"`
	}
	return json.Unmarshal(body, &p) == nil && p.Field == field
}
