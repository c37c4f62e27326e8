// Command nic-agent runs on a GPU host and programs the SRv6 paths Weft places for its flows.
package main

import (
	"os"

	"weft.io/nic-agent/internal/cli"
)

func main() {
	os.Exit(cli.Run(os.Args[1:], os.Stdout, os.Stderr))
}
