package contract

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"weft.io/nic-agent/internal/vectors"
)

// TestGeneratedFilesAreCurrent runs each of this package's go:generate commands into a temporary
// file and compares it with the committed one, so a schema or OpenAPI change cannot leave the Go
// types behind.
func TestGeneratedFilesAreCurrent(t *testing.T) {
	src, err := os.ReadFile("contract.go")
	if err != nil {
		t.Fatal(err)
	}
	var commands [][]string
	for line := range strings.Lines(string(src)) {
		if cmd, ok := strings.CutPrefix(strings.TrimSpace(line), "//go:generate "); ok {
			commands = append(commands, strings.Fields(cmd))
		}
	}
	if len(commands) < 2 {
		t.Fatalf("contract.go has %d go:generate commands, want the flow report's and the profile's", len(commands))
	}
	for _, args := range commands {
		if len(args) < 3 || args[0] != "go" {
			t.Fatalf("not a go command: %q", args)
		}
		committed := ""
		tmp := filepath.Join(t.TempDir(), "gen.go")
		for i := range args[:len(args)-1] {
			if args[i] == "--output" {
				committed, args[i+1] = args[i+1], tmp
			}
		}
		if committed == "" {
			t.Fatalf("the go:generate command names no --output: %q", args)
		}
		t.Run(committed, func(t *testing.T) {
			cmd := exec.Command(args[0], args[1:]...)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, out)
			}
			want, err := os.ReadFile(tmp)
			if err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(committed)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("%s is not what its source generates; run: (cd nic-agent && go generate ./internal/contract)", committed)
			}
		})
	}
}

// TestInvalidFlowReportVectorsAreRefused: the generated types check what the schema requires, so
// every invalid report of contracts/vectors/flow-reports.json fails to decode, naming the field.
func TestInvalidFlowReportVectorsAreRefused(t *testing.T) {
	cases, err := vectors.FlowReports()
	if err != nil {
		t.Fatal(err)
	}
	invalid := 0
	for _, c := range cases {
		if c.Valid {
			continue
		}
		invalid++
		t.Run(c.Name, func(t *testing.T) {
			var r FlowReport
			err := json.Unmarshal(c.Report, &r)
			if err == nil {
				t.Fatalf("decoded an invalid report: %+v", r)
			}
			leaf := c.Field[strings.LastIndex(c.Field, ".")+1:]
			if !strings.Contains(err.Error(), "field "+leaf+" ") {
				t.Fatalf("error %q does not name %q (vector field %s)", err, leaf, c.Field)
			}
		})
	}
	if invalid < 3 {
		t.Fatalf("only %d invalid flow-report vectors", invalid)
	}
}
