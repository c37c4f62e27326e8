// Package vectors loads the shared test vectors in contracts/vectors/, which the Java, Go and
// TypeScript implementations of Weft's encoding rules must all agree on.
package vectors

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
)

// Dir is contracts/vectors, found from this source file so tests work from any package.
func Dir() string {
	_, self, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(self), "..", "..", "..", "contracts", "vectors")
}

// USIDCase is one case of usid-carriers.json: Carriers on success, Error (a code) otherwise.
type USIDCase struct {
	Name     string   `json:"name"`
	Block    string   `json:"block"`
	USIDs    []int    `json:"usids"`
	Carriers []string `json:"carriers"`
	Error    string   `json:"error"`
}

// EVEncodeCase is one "encode" case of ev.json: EV/EV1/EV2 on success, Error otherwise.
type EVEncodeCase struct {
	Name  string `json:"name"`
	N1    int    `json:"n1"`
	I1    int    `json:"i1"`
	N2    int    `json:"n2"`
	I2    int    `json:"i2"`
	EV    int    `json:"ev"`
	EV1   int    `json:"ev1"`
	EV2   int    `json:"ev2"`
	Error string `json:"error"`
}

// EVDecodeCase is one "decode" case of ev.json.
type EVDecodeCase struct {
	Name string `json:"name"`
	EV   int    `json:"ev"`
	N1   int    `json:"n1"`
	N2   int    `json:"n2"`
	I1   int    `json:"i1"`
	I2   int    `json:"i2"`
}

// USIDCarriers reads usid-carriers.json.
func USIDCarriers() ([]USIDCase, error) {
	var f struct {
		Version int        `json:"version"`
		Cases   []USIDCase `json:"cases"`
	}
	if err := load("usid-carriers.json", &f.Version, &f); err != nil {
		return nil, err
	}
	return f.Cases, nil
}

// EV reads ev.json.
func EV() (encode []EVEncodeCase, decode []EVDecodeCase, err error) {
	var f struct {
		Version int            `json:"version"`
		Encode  []EVEncodeCase `json:"encode"`
		Decode  []EVDecodeCase `json:"decode"`
	}
	if err := load("ev.json", &f.Version, &f); err != nil {
		return nil, nil, err
	}
	return f.Encode, f.Decode, nil
}

func load(name string, version *int, into any) error {
	path := filepath.Join(Dir(), name)
	raw, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("shared vectors: %w", err)
	}
	if err := json.Unmarshal(raw, into); err != nil {
		return fmt.Errorf("shared vectors %s: %w", path, err)
	}
	if *version != 1 {
		return fmt.Errorf("shared vectors %s: version %d, this code reads version 1", path, *version)
	}
	return nil
}

// FlowReportCase is one case of flow-reports.json: Report is accepted by every side when Valid,
// else refused naming Field.
type FlowReportCase struct {
	Name   string          `json:"name"`
	Valid  bool            `json:"valid"`
	Field  string          `json:"field"`
	Report json.RawMessage `json:"report"`
}

// FlowReports reads flow-reports.json.
func FlowReports() ([]FlowReportCase, error) {
	var f struct {
		Version int              `json:"version"`
		Cases   []FlowReportCase `json:"cases"`
	}
	if err := load("flow-reports.json", &f.Version, &f); err != nil {
		return nil, err
	}
	return f.Cases, nil
}

// AgentProfileCase is one case of agent-profiles.json: a profile as scheduler-api writes it.
type AgentProfileCase struct {
	Name    string          `json:"name"`
	Profile json.RawMessage `json:"profile"`
	// EVPorts, when present, is the EV port list the agent publishes per peer for Profile when
	// every GOOD entry is in use.
	EVPorts []PeerPorts `json:"evPorts"`
	// EVSteering, when present, is the source ports the agent sends out a named port for Profile
	// (one per peer and source port, in any order) when every GOOD entry is in use.
	EVSteering []PortSteer `json:"evSteering"`
}

// PortSteer is one source port to one peer sent out of a named port of a multi-plane NIC.
type PortSteer struct {
	Peer  string `json:"peer"`
	Sport int    `json:"sport"`
	Port  string `json:"port"`
}

// AgentProfile is the profile of the agent-profiles.json case called name.
func AgentProfile(name string) (json.RawMessage, error) {
	cases, err := AgentProfiles()
	if err != nil {
		return nil, err
	}
	for _, c := range cases {
		if c.Name == name {
			return c.Profile, nil
		}
	}
	return nil, fmt.Errorf("shared vectors agent-profiles.json: no case %q", name)
}

// PeerPorts is one peer's EV port list.
type PeerPorts struct {
	Peer  string `json:"peer"`
	Ports []int  `json:"ports"`
}

// AgentProfiles reads agent-profiles.json.
func AgentProfiles() ([]AgentProfileCase, error) {
	var f struct {
		Version int                `json:"version"`
		Cases   []AgentProfileCase `json:"cases"`
	}
	if err := load("agent-profiles.json", &f.Version, &f); err != nil {
		return nil, err
	}
	return f.Cases, nil
}

// EVPortsCase is one case of ev-ports.json: weighted source ports, their slots and the list.
type EVPortsCase struct {
	Name    string `json:"name"`
	Entries []struct {
		Port   int `json:"port"`
		Weight int `json:"weight"`
	} `json:"entries"`
	Slots []int `json:"slots"`
	Ports []int `json:"ports"`
}

// EVPorts reads ev-ports.json.
func EVPorts() ([]EVPortsCase, error) {
	var f struct {
		Version int           `json:"version"`
		Cases   []EVPortsCase `json:"cases"`
	}
	if err := load("ev-ports.json", &f.Version, &f); err != nil {
		return nil, err
	}
	return f.Cases, nil
}
