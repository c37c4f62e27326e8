package telemetry

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
)

// ParseTargets reads "leaf1=127.0.0.1:50001,leaf2=..." (the flag form) or, one per line, the
// same pairs or "leaf1 127.0.0.1:50001" (the file form); # starts a comment.
func ParseTargets(s string) (map[string]string, error) {
	out := map[string]string{}
	fields := strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == '\n' })
	for _, f := range fields {
		f = strings.TrimSpace(strings.SplitN(f, "#", 2)[0])
		if f == "" {
			continue
		}
		name, addr, ok := strings.Cut(f, "=")
		if !ok {
			parts := strings.Fields(f)
			if len(parts) != 2 {
				return nil, fmt.Errorf("targets: %q is not <switch>=<host:port>", f)
			}
			name, addr = parts[0], parts[1]
		}
		name, addr = strings.TrimSpace(name), strings.TrimSpace(addr)
		if name == "" || !strings.Contains(addr, ":") {
			return nil, fmt.Errorf("targets: %q is not <switch>=<host:port>", f)
		}
		out[name] = addr
	}
	return out, nil
}

// ReadTargetsFile reads a targets file (see ParseTargets).
func ReadTargetsFile(path string) (map[string]string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("targets file: %w", err)
	}
	return ParseTargets(string(b))
}

// snapshot is the part of a weft.fabric record (contracts/schemas/fabric-snapshot.schema.json)
// that names the switches.
type snapshot struct {
	FabricID string `json:"fabricId"`
	Fabric   struct {
		Nodes []struct {
			ID   string `json:"id"`
			Role string `json:"role"`
		} `json:"nodes"`
	} `json:"fabric"`
}

// Fabrics keeps the latest snapshot's switches per fabric id (weft.fabric is compacted by id).
type Fabrics struct {
	switches map[string][]string
}

// Apply takes one weft.fabric record; an empty value (a tombstone) removes the fabric.
func (f *Fabrics) Apply(key string, value []byte) error {
	if f.switches == nil {
		f.switches = map[string][]string{}
	}
	if len(value) == 0 {
		delete(f.switches, key)
		return nil
	}
	var s snapshot
	if err := json.Unmarshal(value, &s); err != nil {
		return fmt.Errorf("weft.fabric record %q: %w", key, err)
	}
	if s.FabricID == "" {
		return fmt.Errorf("weft.fabric record %q: fabricId: missing", key)
	}
	var sw []string
	for _, n := range s.Fabric.Nodes {
		if n.Role != "nic" {
			sw = append(sw, n.ID)
		}
	}
	f.switches[s.FabricID] = sw
	return nil
}

// Targets are the switches of every fabric that have an address; missing lists those without.
func (f *Fabrics) Targets(addresses map[string]string) (targets []Target, missing []string) {
	seen := map[string]bool{}
	for _, sws := range f.switches {
		for _, sw := range sws {
			if seen[sw] {
				continue
			}
			seen[sw] = true
			if addr, ok := addresses[sw]; ok {
				targets = append(targets, Target{Name: sw, Address: addr})
			} else {
				missing = append(missing, sw)
			}
		}
	}
	sort.Slice(targets, func(i, j int) bool { return targets[i].Name < targets[j].Name })
	sort.Strings(missing)
	return targets, missing
}
