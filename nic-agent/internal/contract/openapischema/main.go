// Command openapischema runs go-jsonschema over components of an OpenAPI document: it copies the
// named component schemas (and those they reference) into one JSON Schema, the first as its root
// and every one under $defs with "#/components/schemas/X" rewritten to "#/$defs/X", writes that
// to a temporary file and hands it to go-jsonschema with the remaining arguments. The OpenAPI
// stays the one definition; nothing extracted is committed. An integer of format int64 becomes
// a Go int64. Enums are left out: go-jsonschema would refuse a whole document over one value it
// does not know, where the agent refuses (and reports) only the entry that carries it, so a newer
// scheduler-api's format or state costs one entry, not the profile.
//
// Usage: openapischema -openapi FILE -id URI -root Name[=GoName] -- <go-jsonschema args>
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"
)

func main() {
	openapi := flag.String("openapi", "", "OpenAPI document (YAML)")
	id := flag.String("id", "", "$id of the extracted schema")
	root := flag.String("root", "", "component schema that becomes the root")
	flag.Parse()
	if err := run(*openapi, *id, *root, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "openapischema:", err)
		os.Exit(1)
	}
}

func run(openapi, id, root string, rest []string) error {
	raw, err := os.ReadFile(openapi)
	if err != nil {
		return err
	}
	var doc struct {
		Components struct {
			Schemas map[string]any `yaml:"schemas"`
		} `yaml:"components"`
	}
	if err := yaml.Unmarshal(raw, &doc); err != nil {
		return fmt.Errorf("%s: %w", openapi, err)
	}
	defs := map[string]any{}
	var visit func(name string) error
	visit = func(name string) error {
		if _, done := defs[name]; done {
			return nil
		}
		s, ok := doc.Components.Schemas[name]
		if !ok {
			return fmt.Errorf("%s has no component schema %q", openapi, name)
		}
		defs[name] = nil
		var refs []string
		defs[name] = rewrite(s, &refs)
		for _, r := range refs {
			if err := visit(r); err != nil {
				return err
			}
		}
		return nil
	}
	if err := visit(root); err != nil {
		return err
	}
	schema := map[string]any{
		"$schema": "https://json-schema.org/draft/2020-12/schema",
		"$id":     id,
		"$ref":    "#/$defs/" + root,
		"$defs":   defs,
	}
	out, err := json.MarshalIndent(schema, "", "  ")
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "openapischema")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	file := filepath.Join(dir, root+".schema.json")
	if err := os.WriteFile(file, out, 0o644); err != nil {
		return err
	}
	cmd := exec.Command("go", append(append([]string{"tool", "go-jsonschema"}, rest...), file)...)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	return cmd.Run()
}

// rewrite copies an OpenAPI schema node, pointing component references into $defs and
// collecting the names they reference.
func rewrite(node any, refs *[]string) any {
	switch n := node.(type) {
	case map[string]any:
		c := make(map[string]any, len(n))
		for k, v := range n {
			if k == "enum" {
				continue
			}
			if s, ok := v.(string); ok && k == "$ref" {
				if name, ok := strings.CutPrefix(s, "#/components/schemas/"); ok {
					*refs = append(*refs, name)
					c[k] = "#/$defs/" + name
					continue
				}
			}
			c[k] = rewrite(v, refs)
		}
		if n["type"] == "integer" && n["format"] == "int64" {
			// go-jsonschema reads no format: without this an int64 would become a Go int.
			c["goJSONSchema"] = map[string]any{"type": "int64"}
		}
		return c
	case []any:
		c := make([]any, len(n))
		for i, v := range n {
			c[i] = rewrite(v, refs)
		}
		return c
	default:
		return node
	}
}
