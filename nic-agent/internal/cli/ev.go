package cli

import (
	"flag"
	"fmt"
	"io"

	"weft.io/nic-agent/internal/ev"
)

func runEV(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("ev", "--n1 N --i1 I [--n2 N --i2 I]", stderr)
	n1 := fs.Int("n1", 0, "members in the first-hop switch's EV table (1..256)")
	i1 := fs.Int("i1", 0, "member index to select at the first hop")
	n2 := fs.Int("n2", 1, "members in the second-hop switch's EV table (1 when only the first hop matters)")
	i2 := fs.Int("i2", 0, "member index to select at the second hop")
	if code, ok := parse(fs, args, stderr); !ok {
		return code
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	for _, name := range []string{"n1", "i1"} {
		if !set[name] {
			return fail(stderr, "ev", fmt.Errorf("--%s: required", name), exitUsage)
		}
	}
	v, err := ev.Encode(ev.Choice{Size: *n1, Index: *i1}, ev.Choice{Size: *n2, Index: *i2})
	if err != nil {
		return fail(stderr, "ev", err, exitError)
	}
	fmt.Fprintf(stdout, "ev %d (0x%04x) ev1 0x%02x ev2 0x%02x\n", v, v, v>>8, v&0xFF)
	return exitOK
}
