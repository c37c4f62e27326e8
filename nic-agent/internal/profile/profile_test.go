package profile_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"weft.io/nic-agent/internal/profile"
	"weft.io/nic-agent/internal/vectors"
)

// TestAgentProfileVectorsFitTheProfileType: every profile of contracts/vectors/agent-profiles.json
// (what scheduler-api writes) decodes into the agent's type and encodes back
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
			// The generated UnmarshalJSON ignores unknown properties (a decoder's
			// DisallowUnknownFields does not reach it): the round trip below catches any.
			var p profile.Profile
			if err := json.Unmarshal(c.Profile, &p); err != nil {
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

// TestProfileLackingARequiredFieldIsRefused: the generated types check what the OpenAPI requires.
func TestProfileLackingARequiredFieldIsRefused(t *testing.T) {
	raw := `{"nic":"nic1","version":1,"peers":[{"peer":"nic2","minActive":1,` +
		`"entries":[{"id":"f#srv6","format":"srv6","weight":1}]}]}`
	var p profile.Profile
	err := json.Unmarshal([]byte(raw), &p)
	if err == nil || !strings.Contains(err.Error(), "field state in Entry: required") {
		t.Fatalf("decoded an entry without state: err %v", err)
	}
}
