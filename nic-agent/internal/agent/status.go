package agent

import (
	"time"

	"weft.io/nic-agent/internal/host"
)

// Agent states shown by `nic-agent status`.
const (
	StateStarting   = "starting"    // no answer from scheduler-api yet
	StateConnected  = "connected"   // the last long-poll was answered
	StateFailStatic = "fail-static" // scheduler-api unreachable: the last applied paths are kept
)

// Status is what `nic-agent status` prints (JSON over the agent's unix socket).
type Status struct {
	NIC            string             `json:"nic"`
	State          string             `json:"state"`
	Version        int64              `json:"version"` // -1 before the first profile
	AppliedAt      time.Time          `json:"appliedAt,omitzero"`
	LastContact    time.Time          `json:"lastContact,omitzero"`
	LastError      string             `json:"lastError,omitempty"`
	RetryIn        string             `json:"retryIn,omitempty"` // the backoff wait before the next try
	Failures       int                `json:"consecutiveFailures,omitempty"`
	Applied        host.Desired       `json:"applied"`
	LastChanges    host.Changes       `json:"lastChanges"`
	KernelFailures []host.Failure     `json:"kernelFailures,omitempty"`
	ProbeBad       []string           `json:"probeAssumedBad,omitempty"`
	ProbeRTTus     map[string]float64 `json:"probeRttUs,omitempty"`
}

// Snapshot returns a copy of the current status.
func (a *Agent) Snapshot() Status {
	a.mu.Lock()
	defer a.mu.Unlock()
	s := a.status
	return s
}

func (a *Agent) setOffline(err error, retry time.Duration) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.status.State = StateFailStatic
	a.status.LastError = err.Error()
	a.status.RetryIn = retry.Round(time.Millisecond).String()
	a.status.Failures++
}

func (a *Agent) setOnline() {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.status.State = StateConnected
	a.status.LastContact = time.Now().UTC()
	a.status.LastError, a.status.RetryIn, a.status.Failures = "", "", 0
}
