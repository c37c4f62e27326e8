package telemetry

import (
	"encoding/json"
	"os"
	"testing"
)

// TestTopicsAreThoseOfTheCatalogue: the topic names the agent writes and reads are those of
// contracts/topics.json, with the value schema this package writes or reads.
func TestTopicsAreThoseOfTheCatalogue(t *testing.T) {
	b, err := os.ReadFile("../../../../contracts/topics.json")
	if err != nil {
		t.Fatal(err)
	}
	var catalogue struct {
		Topics []struct {
			Name        string `json:"name"`
			ValueSchema string `json:"valueSchema"`
		} `json:"topics"`
	}
	if err := json.Unmarshal(b, &catalogue); err != nil {
		t.Fatal(err)
	}
	schemas := map[string]string{}
	for _, tp := range catalogue.Topics {
		schemas[tp.Name] = tp.ValueSchema
	}
	for name, schema := range map[string]string{
		TelemetryTopic: "schemas/gnmic-event.schema.json",
		FabricTopic:    "schemas/fabric-snapshot.schema.json",
	} {
		if got, ok := schemas[name]; !ok || got != schema {
			t.Errorf("topic %q: catalogue has value schema %q (present %v), want %q", name, got, ok, schema)
		}
	}
}
