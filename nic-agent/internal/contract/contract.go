// Package contract holds the Go types of the contracts the agent writes, generated from the one
// file each is defined in, so the agent cannot drift from what scheduler-api reads:
// flowreport_gen.go from contracts/schemas/flow-report.schema.json (with the fabric schema's
// types it references); profile_gen.go, what the agent reads, from the EvProfile, Peer and Entry
// components of contracts/openapi/scheduler-api.yaml (via ./openapischema). Regenerate with `go generate ./internal/contract`;
// TestGeneratedFilesAreCurrent fails when a committed file differs from what the schema gives.
package contract

import "strconv"

//go:generate go tool go-jsonschema --package contract --tags json --minimal-names --capitalization ID,NIC,EV,RTT,CNP,ECN,TLS --schema-root-type https://weft.io/contracts/schemas/flow-report.schema.json=FlowReport --schema-root-type https://weft.io/contracts/fabric.schema.json=Fabric --output flowreport_gen.go ../../../contracts/schemas/flow-report.schema.json
//go:generate go run ./openapischema -openapi ../../../contracts/openapi/scheduler-api.yaml -id https://weft.io/contracts/openapi/scheduler-api.yaml -root EvProfile -- --package contract --tags json --minimal-names --capitalization ID,NIC,EV,RTT,CNP,ECN,TLS --output profile_gen.go

// FlowReportVersion is the flow report schemaVersion this agent writes (the schema's const).
const FlowReportVersion = 1

func (r Rejection) String() string { return r.Field + ": " + r.Reason }

// EntryID is the refused entry's id, "" when the whole peer was refused.
func (r Rejection) EntryID() string {
	if r.Entry == nil {
		return ""
	}
	return *r.Entry
}

// Uint64Of writes v as the contracts' decimal-string 64-bit counter.
func Uint64Of(v uint64) Uint64 { return Uint64(strconv.FormatUint(v, 10)) }
