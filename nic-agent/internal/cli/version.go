package cli

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
)

// Version is set at link time: go build -ldflags "-X weft.io/nic-agent/internal/cli.Version=0.1.0".
var Version = "0.1.0-dev"

func runVersion(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("version", "", stderr)
	if code, ok := parse(fs, args, stderr); !ok {
		return code
	}
	rev := "unknown"
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, s := range info.Settings {
			if s.Key == "vcs.revision" && len(s.Value) >= 12 {
				rev = s.Value[:12]
			}
		}
	}
	fmt.Fprintf(stdout, "nic-agent %s (%s, revision %s)\n", Version, runtime.Version(), rev)
	return exitOK
}
