package agent

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"weft.io/nic-agent/internal/contract"
	"weft.io/nic-agent/internal/counters"
	"weft.io/nic-agent/internal/host"
	"weft.io/nic-agent/internal/vectors"
)

func reportStatus() Status {
	return Status{Applied: host.Desired{Active: []host.Active{
		{Peer: "nic2", PeerAddr: "fd00::2", ID: "a#srv6", Format: "srv6", Carriers: []string{"fcbb:bb00:1::"}, Weight: 3},
		{Peer: "nic2", PeerAddr: "fd00::2", ID: "b#srv6", Format: "srv6", Carriers: []string{"fcbb:bb00:2::"}, Weight: 1},
		{Peer: "nic3", PeerAddr: "fd00::3", ID: "c#ev", Format: "udp-sport", EV: 49920, Weight: 1},
	}}, ProbeRTTus: map[string]float64{"a#srv6": 42}}
}

// TestBuildReportSharesPeerCountsByWeight: the kernel counts per peer; two entries to one peer
// share its bytes 3:1, and the EV flow carries its port instead of a carrier.
func TestBuildReportSharesPeerCountsByWeight(t *testing.T) {
	prev := map[string]counters.Count{"fd00::2": {Bytes: 1000}, "fd00::3": {Bytes: 0}}
	now := map[string]counters.Count{"fd00::2": {Bytes: 1000 + 8000}, "fd00::3": {Bytes: 500}}
	r, sent := buildReport("nic1", time.Unix(0, 42), reportStatus(), now, prev, time.Second)
	if r.SchemaVersion != 1 || r.NIC != "nic1" || r.TimestampNs != "42" || len(r.Flows) != 3 {
		t.Fatalf("report = %+v", r)
	}
	a, b, c := r.Flows[0], r.Flows[1], r.Flows[2]
	if a.Bytes != "6750" || b.Bytes != "2250" || sent[0] != 6000 || sent[1] != 2000 || sent[2] != 500 {
		t.Fatalf("bytes a=%s b=%s sent=%v, want 3:1 of the peer's 9000 (6000:2000 in the interval)", a.Bytes, b.Bytes, sent)
	}
	if a.Carrier == nil || a.Carrier.String() != "fcbb:bb00:1::" || a.EV != nil || c.EV == nil || *c.EV != 49920 || c.Carrier != nil {
		t.Fatalf("encodings: a %+v, c %+v", a, c)
	}
	if a.RTTUs == nil || *a.RTTUs != 42 || b.RTTUs != nil {
		t.Fatalf("rtt a=%v b=%v, want 42 and unknown", a.RTTUs, b.RTTUs)
	}
	if raw, _ := json.Marshal(b); bytes.Contains(raw, []byte(`rttUs`)) || bytes.Contains(raw, []byte(`null`)) {
		t.Fatalf("an unknown RTT (and an absent job or ev) is left out, as the Java writer does: %s", raw)
	}
	if a.RateGbps != 6000*8/1e9 {
		t.Fatalf("rate a = %v Gbit/s", a.RateGbps)
	}
	if a.ECNMarked != "0" || a.CNPCount != "0" || a.Drops != "0" {
		t.Fatalf("without NIC counters ECN/CNP/drops must be 0: %+v", a)
	}
}

// TestNICCountsAreSharedByBytesAndAccumulated: what the NIC counted before the agent looked is
// nobody's; later increases go to the flows by the bytes each sent in the interval.
func TestNICCountsAreSharedByBytesAndAccumulated(t *testing.T) {
	var n nicShares
	n.acc = map[string]counters.NICCount{}
	r, _ := buildReport("nic1", time.Unix(0, 1), reportStatus(), nil, nil, time.Second)
	n.add(counters.NICCount{ECNMarked: 1000, CNPs: 1000, Drops: 1000}, &r, []float64{0, 0, 0})
	if r.Flows[0].ECNMarked != "0" || r.Flows[2].Drops != "0" {
		t.Fatalf("counts from before the agent looked were given to flows: %+v", r.Flows)
	}
	for round, want := range [][3]contract.Uint64{{"60", "20", "20"}, {"120", "40", "40"}} {
		r, _ = buildReport("nic1", time.Unix(0, 2), reportStatus(), nil, nil, time.Second)
		c := counters.NICCount{ECNMarked: 1000 + uint64(round+1)*100, CNPs: 1000, Drops: 1000 + uint64(round+1)*10}
		n.add(c, &r, []float64{600, 200, 200})
		for i, f := range r.Flows {
			if f.ECNMarked != want[i] {
				t.Fatalf("round %d flow %s ecnMarked = %s, want %s", round, f.FlowID, f.ECNMarked, want[i])
			}
		}
		if r.Flows[0].CNPCount != "0" || r.Flows[0].Drops != []contract.Uint64{"6", "12"}[round] {
			t.Fatalf("round %d flow a: cnp %s drops %s", round, r.Flows[0].CNPCount, r.Flows[0].Drops)
		}
	}
}

// TestReportNamesRejectedEntries: what Compile refused is in the report, by peer, entry, field and
// reason; with nothing refused the field is absent (scheduler-api takes that as cleared).
func TestReportNamesRejectedEntries(t *testing.T) {
	s := reportStatus()
	s.Applied.Rejected = []contract.Rejection{
		{Peer: "nic3", Entry: new("f4#srv6"), Field: "peers[1].entries[2].carriers[1]", Reason: `"bogus" is not an IPv6 address`},
		{Peer: "nic4", Field: "peers[2].address", Reason: `peer "nic4" has no IPv6 address ("")`},
	}
	r, _ := buildReport("nic1", time.Unix(0, 1), s, nil, nil, time.Second)
	if !reflect.DeepEqual(r.Rejected, s.Applied.Rejected) {
		t.Fatalf("rejected = %+v, want %+v", r.Rejected, s.Applied.Rejected)
	}
	raw, _ := json.Marshal(r)
	if !bytes.Contains(raw, []byte(`"rejected":[{"entry":"f4#srv6","field":"peers[1].entries[2].carriers[1]","peer":"nic3"`)) ||
		!bytes.Contains(raw, []byte(`{"field":"peers[2].address","peer":"nic4"`)) {
		t.Fatalf("report JSON = %s", raw)
	}
	r, _ = buildReport("nic1", time.Unix(0, 1), reportStatus(), nil, nil, time.Second)
	if raw, _ := json.Marshal(r); bytes.Contains(raw, []byte(`"rejected"`)) {
		t.Fatalf("without rejections the report has no rejected field: %s", raw)
	}
}

// TestFlowReportVectorsFitTheReportType: every valid report of contracts/vectors/flow-reports.json
// decodes into the agent's report type and encodes back to the same JSON (an optional field given
// as null comes back absent, which the schema and every reader take alike), so what the agent
// writes is what the contract (and scheduler-api) reads.
func TestFlowReportVectorsFitTheReportType(t *testing.T) {
	cases, err := vectors.FlowReports()
	if err != nil {
		t.Fatal(err)
	}
	valid := 0
	for _, c := range cases {
		if !c.Valid {
			continue
		}
		valid++
		t.Run(c.Name, func(t *testing.T) {
			dec := json.NewDecoder(bytes.NewReader(c.Report))
			dec.DisallowUnknownFields()
			var r contract.FlowReport
			if err := dec.Decode(&r); err != nil {
				t.Fatalf("decode: %v", err)
			}
			back, err := json.Marshal(r)
			if err != nil {
				t.Fatal(err)
			}
			var want, got any
			if err := json.Unmarshal(c.Report, &want); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(back, &got); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(dropNulls(want), got) {
				t.Fatalf("round trip changed the report:\nwant %s\ngot  %s", c.Report, back)
			}
		})
	}
	if valid < 2 {
		t.Fatalf("only %d valid flow-report vectors", valid)
	}
}

// dropNulls removes the object members whose value is null, at any depth.
func dropNulls(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			if e == nil {
				delete(v, k)
			} else {
				v[k] = dropNulls(e)
			}
		}
	case []any:
		for i, e := range v {
			v[i] = dropNulls(e)
		}
	}
	return v
}
