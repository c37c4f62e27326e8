package cli

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"weft.io/nic-agent/internal/usid"
)

func runEncode(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("encode", "--block fcbb:bb00::/32 --usids 1,12,2,e000", stderr)
	block := fs.String("block", "", "the fabric's 32-bit uSID block, e.g. fcbb:bb00::/32")
	list := fs.String("usids", "", "comma-separated uSIDs in hex as they appear in a carrier, path order, e.g. 1,12,2,e000")
	if code, ok := parse(fs, args, stderr); !ok {
		return code
	}
	if *block == "" {
		return fail(stderr, "encode", fmt.Errorf("--block: required"), exitUsage)
	}
	ids, err := parseHexList(*list)
	if err != nil {
		return fail(stderr, "encode", err, exitUsage)
	}
	carriers, err := usid.Encode(*block, ids)
	if err != nil {
		return fail(stderr, "encode", err, exitError)
	}
	for _, c := range carriers {
		fmt.Fprintln(stdout, c)
	}
	return exitOK
}

// parseHexList reads "1,12,2,e000" (an optional 0x prefix is accepted). Range checks are left
// to usid.Encode so the CLI reports the same errors as every other caller.
func parseHexList(s string) ([]int, error) {
	if strings.TrimSpace(s) == "" {
		return nil, fmt.Errorf("--usids: required (comma-separated hex, e.g. 1,12,2,e000)")
	}
	parts := strings.Split(s, ",")
	ids := make([]int, len(parts))
	for i, p := range parts {
		p = strings.TrimPrefix(strings.ToLower(strings.TrimSpace(p)), "0x")
		v, err := strconv.ParseInt(p, 16, 32)
		if err != nil {
			return nil, fmt.Errorf("--usids: item %d %q is not a hex number", i+1, parts[i])
		}
		ids[i] = int(v)
	}
	return ids, nil
}
