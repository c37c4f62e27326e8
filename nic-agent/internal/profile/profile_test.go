package profile_test

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"weft.io/nic-agent/internal/profile"
	"weft.io/nic-agent/internal/vectors"
)

// TestAgentProfileVectorsFitTheProfileType: every profile of contracts/vectors/agent-profiles.json
// (what scheduler-api writes) decodes into the agent's type with no unknown field and encodes back
// to the same JSON, so the agent reads every field the contract has and nothing else.
func TestAgentProfileVectorsFitTheProfileType(t *testing.T) {
	cases, err := vectors.AgentProfiles()
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) < 3 {
		t.Fatalf("only %d agent-profile vectors", len(cases))
	}
	formats := map[string]bool{}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			dec := json.NewDecoder(bytes.NewReader(c.Profile))
			dec.DisallowUnknownFields()
			var p profile.Profile
			if err := dec.Decode(&p); err != nil {
				t.Fatalf("decode: %v", err)
			}
			for _, peer := range p.Peers {
				for _, e := range peer.Entries {
					formats[e.Format] = true
				}
			}
			back, err := json.Marshal(p)
			if err != nil {
				t.Fatal(err)
			}
			var want, got any
			if err := json.Unmarshal(c.Profile, &want); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(back, &got); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(want, got) {
				t.Fatalf("round trip changed the profile:\nwant %s\ngot  %s", c.Profile, back)
			}
		})
	}
	if !formats[profile.FormatSRv6] || !formats[profile.FormatUDPSport] {
		t.Fatalf("the vectors must cover both formats, have %v", formats)
	}
}
