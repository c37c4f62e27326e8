// Package flowreport holds the flow report contract (contracts/schemas/flow-report.schema.json) as
// Go types: what the agent posts to scheduler-api every report interval. Hand-kept beside the
// schema (scheduler-api's OpenAPI marks almost nothing required, so a generator would make every
// field optional); TestFlowReportVectorsFitTheReportType holds it to contracts/vectors/flow-reports.json.
package flowreport

// SchemaVersion is the contract version this agent writes.
const SchemaVersion = 1

// Report is what one NIC agent saw of its own flows at one instant. Counters are cumulative
// unsigned 64-bit decimal strings.
type Report struct {
	SchemaVersion int    `json:"schemaVersion"`
	NIC           string `json:"nic"`
	TimestampNs   string `json:"timestampNs"`
	Flows         []Flow `json:"flows"`
	// Rejected names what the agent refused of the applied profile; absent when nothing was
	// (scheduler-api then takes the NIC's rejections as cleared).
	Rejected []Rejection `json:"rejected,omitempty"`
}

// Flow is one flow of the NIC: exactly one of EV and Carrier is set.
type Flow struct {
	FlowID    string   `json:"flowId"`
	JobID     string   `json:"jobId,omitempty"`
	DstNIC    string   `json:"dstNic"`
	EV        *int     `json:"ev,omitempty"`
	Carrier   string   `json:"carrier,omitempty"`
	Bytes     string   `json:"bytes"`
	RateGbps  float64  `json:"rateGbps"`
	ECNMarked string   `json:"ecnMarked"`
	CNPCount  string   `json:"cnpCount"`
	RTTus     *float64 `json:"rttUs"`
	Drops     string   `json:"drops"`
}

// Rejection is one profile entry (or a whole peer, Entry empty) the agent refused, with the field
// at fault (JSON-path style within the profile: peers[1].entries[2].carriers[0]) and why.
type Rejection struct {
	Peer   string `json:"peer"`
	Entry  string `json:"entry,omitempty"`
	Field  string `json:"field"`
	Reason string `json:"reason"`
}

func (r Rejection) String() string { return r.Field + ": " + r.Reason }
