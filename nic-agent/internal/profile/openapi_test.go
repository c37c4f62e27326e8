package profile_test

import (
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"weft.io/nic-agent/internal/profile"
	"weft.io/nic-agent/internal/vectors"
)

// TestProfileTypesMatchTheOpenAPI: the hand-kept types have exactly the properties of EvProfile,
// Peer and Entry in contracts/openapi/scheduler-api.yaml, of the same JSON kinds. The agent decodes
// profiles with DisallowUnknownFields, so a property scheduler-api adds would make every profile
// refused: this test names it first.
func TestProfileTypesMatchTheOpenAPI(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join(vectors.Dir(), "..", "openapi", "scheduler-api.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var api struct {
		Components struct {
			Schemas map[string]struct {
				Properties map[string]struct {
					Type string `yaml:"type"`
					Ref  string `yaml:"$ref"`
				} `yaml:"properties"`
			} `yaml:"schemas"`
		} `yaml:"components"`
	}
	if err := yaml.Unmarshal(raw, &api); err != nil {
		t.Fatal(err)
	}
	for name, typ := range map[string]reflect.Type{
		"EvProfile": reflect.TypeFor[profile.Profile](),
		"Peer":      reflect.TypeFor[profile.Peer](),
		"Entry":     reflect.TypeFor[profile.Entry](),
	} {
		schema, ok := api.Components.Schemas[name]
		if !ok {
			t.Errorf("the OpenAPI has no schema %s", name)
			continue
		}
		fields := map[string]string{}
		for i := range typ.NumField() {
			tag, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
			fields[tag] = jsonKind(typ.Field(i).Type.Kind())
		}
		var missing []string
		for prop, p := range schema.Properties {
			kind, ok := fields[prop]
			switch {
			case !ok:
				missing = append(missing, prop)
			case p.Type != kind:
				t.Errorf("%s.%s is %q in the OpenAPI, %q in %s", name, prop, p.Type, kind, typ)
			}
			delete(fields, prop)
		}
		sort.Strings(missing)
		if len(missing) > 0 {
			t.Errorf("%s has %v in the OpenAPI, missing from %s", name, missing, typ)
		}
		for f := range fields {
			t.Errorf("%s has %q, which the OpenAPI's %s does not", typ, f, name)
		}
	}
}

func jsonKind(k reflect.Kind) string {
	switch k {
	case reflect.String:
		return "string"
	case reflect.Int, reflect.Int32, reflect.Int64:
		return "integer"
	case reflect.Slice:
		return "array"
	default:
		return k.String()
	}
}
