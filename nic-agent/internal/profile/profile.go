// Package profile holds the agent contract of scheduler-api (EvProfile in
// contracts/openapi/scheduler-api.yaml) as Go types: what one NIC is told to do for each peer.
// Hand-kept: the OpenAPI is generated from the service and marks no field required, so a generator
// would make every field a pointer; TestProfileTypesMatchTheOpenAPI holds their fields to the
// OpenAPI's EvProfile, Peer and Entry, and TestAgentProfileVectorsFitTheProfileType holds them to
// contracts/vectors/agent-profiles.json, which scheduler-api's tests hold its EvProfile to.
package profile

// Entry states (OCP MRC semantics).
const (
	Good       = "GOOD"
	AssumedBad = "ASSUMED_BAD"
	Denied     = "DENIED"
	Unknown    = "UNKNOWN"
)

// Entry formats.
const (
	FormatSRv6     = "srv6"      // value = first uSID carrier; carriers = the whole list
	FormatUDPSport = "udp-sport" // value = entropy value, the RoCEv2 UDP source port in decimal
)

// Profile is one version of a NIC's paths.
type Profile struct {
	NIC     string `json:"nic"`
	Version int64  `json:"version"`
	Peers   []Peer `json:"peers"`
}

// Peer is every way to reach one destination NIC.
type Peer struct {
	Peer      string  `json:"peer"`
	Address   string  `json:"address,omitempty"` // the peer NIC's IPv6 address as planned
	MinActive int     `json:"minActive"`
	Entries   []Entry `json:"entries"`
}

// Entry is one path (srv6) or one entropy value (udp-sport) to the peer.
type Entry struct {
	ID       string   `json:"id"`
	JobID    string   `json:"jobId,omitempty"`
	Format   string   `json:"format"`
	Value    string   `json:"value,omitempty"`
	Carriers []string `json:"carriers,omitempty"`
	Weight   int      `json:"weight"`
	State    string   `json:"state"`
}
