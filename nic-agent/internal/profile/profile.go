// Package profile names the agent contract of scheduler-api (EvProfile in
// contracts/openapi/scheduler-api.yaml) for the agent: what one NIC is told to do for each peer.
// The types are generated into internal/contract from the OpenAPI's EvProfile, Peer and Entry, so
// they cannot drift from what scheduler-api sends; decoding refuses a profile that lacks a
// required field. Formats and states stay strings: host.Compile refuses an entry with one it does
// not know, not the whole profile. TestAgentProfileVectorsFitTheProfileType
// holds them to contracts/vectors/agent-profiles.json, which scheduler-api's tests hold its
// EvProfile to.
package profile

import "weft.io/nic-agent/internal/contract"

// Profile is one version of a NIC's paths.
type Profile = contract.EVProfile

// Peer is every way to reach one destination NIC.
type Peer = contract.Peer

// Entry is one path (srv6) or one entropy value (udp-sport) to the peer.
type Entry = contract.Entry

// Entry states (OCP MRC semantics), the OpenAPI's enum of Entry.state.
const (
	Good       = "GOOD"
	AssumedBad = "ASSUMED_BAD"
	Denied     = "DENIED"
	Unknown    = "UNKNOWN"
)

// Entry formats, the OpenAPI's enum of Entry.format.
const (
	FormatSRv6     = "srv6"      // value = first uSID carrier; carriers = the whole list
	FormatUDPSport = "udp-sport" // value = entropy value, the RoCEv2 UDP source port in decimal
)
