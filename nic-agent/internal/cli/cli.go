// Package cli holds nic-agent's command-line verbs; each verb is one thin file over a domain package.
package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"
)

// Exit codes.
const (
	exitOK    = 0
	exitError = 1 // the command ran and failed
	exitUsage = 2 // the command line was wrong
)

type verb struct {
	summary string
	run     func(args []string, stdout, stderr io.Writer) int
}

func verbs() map[string]verb {
	return map[string]verb{
		"version":  {"print the agent version", runVersion},
		"encode":   {"print the uSID carriers for a block and a uSID list", runEncode},
		"ev":       {"print the entropy value (UDP source port) that selects EV table members", runEV},
		"run":      {"pull this NIC's paths from scheduler-api and program the host", runAgent},
		"status":   {"print the running agent's state, routes, EV ports and rejections", runStatus},
		"ev-ports": {"print the running agent's EV ports in HCCL's src,dst=sport,... shape", runEVPorts},
	}
}

// Run executes the verb named by args[0] and returns the process exit code.
func Run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		usage(stderr)
		if len(args) == 0 {
			return exitUsage
		}
		return exitOK
	}
	v, ok := verbs()[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "nic-agent: unknown command %q\n", args[0])
		usage(stderr)
		return exitUsage
	}
	return v.run(args[1:], stdout, stderr)
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: nic-agent <command> [flags]\n\ncommands:")
	all := verbs()
	names := make([]string, 0, len(all))
	for n := range all {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-9s %s\n", n, all[n].summary)
	}
	fmt.Fprintln(w, "\nRun 'nic-agent <command> -h' for a command's flags.")
}

// newFlags returns a flag set that reports errors instead of exiting.
func newFlags(name, args string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: nic-agent %s %s\n", name, args)
		fs.PrintDefaults()
	}
	return fs
}

// parse parses flags and refuses positional arguments; ok=false means return code.
func parse(fs *flag.FlagSet, args []string, stderr io.Writer) (code int, ok bool) {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK, false
		}
		return exitUsage, false
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "nic-agent %s: unexpected argument %q\n", fs.Name(), strings.Join(fs.Args(), " "))
		return exitUsage, false
	}
	return exitOK, true
}

// fail prints a one-line error for the verb (no stack traces, the message names the field).
func fail(stderr io.Writer, name string, err error, code int) int {
	fmt.Fprintf(stderr, "nic-agent %s: %v\n", name, err)
	return code
}
