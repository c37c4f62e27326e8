package cli

import (
	"bytes"
	"strings"
	"testing"
)

func TestRun(t *testing.T) {
	tests := []struct {
		name      string
		args      []string
		code      int
		stdout    string // exact
		stderrHas string
	}{
		{"encode one carrier", []string{"encode", "--block", "fcbb:bb00::/32", "--usids", "1,12,2,e000"}, 0,
			"fcbb:bb00:1:12:2:e000::\n", ""},
		{"encode two carriers, 0x and spaces", []string{"encode", "--block=fcbb:bb00::/32", "--usids", "0x1, 2,3,4,5,6,7"}, 0,
			"fcbb:bb00:1:2:3:4:5:6\nfcbb:bb00:7::\n", ""},
		{"encode uSID zero", []string{"encode", "--block", "fcbb:bb00::/32", "--usids", "1,0"}, 1, "", "usids[1]: 0 is not a valid uSID"},
		{"encode uSID too large", []string{"encode", "--block", "fcbb:bb00::/32", "--usids", "10000"}, 1, "", "usids[0]: 65536 is outside"},
		{"encode bad block", []string{"encode", "--block", "fcbb::/48", "--usids", "1"}, 1, "", "prefix length is 48"},
		{"encode missing block", []string{"encode", "--usids", "1"}, 2, "", "--block: required"},
		{"encode missing usids", []string{"encode", "--block", "fcbb:bb00::/32"}, 2, "", "--usids: required"},
		{"encode non-hex", []string{"encode", "--block", "fcbb:bb00::/32", "--usids", "1,xyz"}, 2, "", `item 2 "xyz" is not a hex number`},
		{"encode stray argument", []string{"encode", "--block", "fcbb:bb00::/32", "--usids", "1", "extra"}, 2, "", `unexpected argument "extra"`},
		{"ev first hop", []string{"ev", "--n1", "4", "--i1", "3"}, 0, "ev 49920 (0xc300) ev1 0xc3 ev2 0x00\n", ""},
		{"ev two hops", []string{"ev", "--n1", "8", "--i1", "5", "--n2", "16", "--i2", "11"}, 0, "ev 50443 (0xc50b) ev1 0xc5 ev2 0x0b\n", ""},
		{"ev index out of range", []string{"ev", "--n1", "4", "--i1", "4"}, 1, "", "i1: index 4 is outside 0..3"},
		{"ev not encodable", []string{"ev", "--n1", "256", "--i1", "0", "--n2", "256", "--i2", "0"}, 1, "", "not-encodable"},
		{"ev missing i1", []string{"ev", "--n1", "4"}, 2, "", "--i1: required"},
		{"ev bad number", []string{"ev", "--n1", "four", "--i1", "0"}, 2, "", "invalid value"},
		{"version", []string{"version"}, 0, "", ""},
		{"no command", nil, 2, "", "usage: nic-agent"},
		{"unknown command", []string{"spray"}, 2, "", `unknown command "spray"`},
		{"help", []string{"help"}, 0, "", "encode"},
		{"verb help", []string{"ev", "-h"}, 0, "", "usage: nic-agent ev"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := Run(tt.args, &stdout, &stderr)
			if code != tt.code {
				t.Fatalf("exit %d, want %d; stderr: %s", code, tt.code, stderr.String())
			}
			if tt.name == "version" {
				if !strings.HasPrefix(stdout.String(), "nic-agent "+Version+" (go") {
					t.Fatalf("version printed %q", stdout.String())
				}
				return
			}
			if stdout.String() != tt.stdout {
				t.Fatalf("stdout = %q, want %q", stdout.String(), tt.stdout)
			}
			if !strings.Contains(stderr.String(), tt.stderrHas) {
				t.Fatalf("stderr = %q, want it to contain %q", stderr.String(), tt.stderrHas)
			}
			if tt.code == 1 && strings.Count(strings.TrimSpace(stderr.String()), "\n") != 0 {
				t.Fatalf("a failure should be one line, got %q", stderr.String())
			}
		})
	}
}
