package fanoutprobe

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

// Serve runs the probe from lines on in, one answer line on out per command (the api bench drives
// it as a child process):
//
//	open                  connect every agent (streams: and open them)  -> opened agents=N seconds=S
//	park                  long-polls: send every agent's poll            -> parked agents=N
//	arm                   start a round                                  -> armed
//	await SECONDS POST_US end the round when all arrived or SECONDS passed -> round events=N ...
//	quit                  close the connections and return
//
// A command that fails answers "error <message>" and the probe goes on.
func Serve(p *Probe, in io.Reader, out io.Writer) error {
	lines := bufio.NewScanner(in)
	for lines.Scan() {
		f := strings.Fields(lines.Text())
		if len(f) == 0 {
			continue
		}
		answer, err := command(p, f)
		if err != nil {
			answer = "error " + strings.ReplaceAll(err.Error(), "\n", " ")
		}
		if _, werr := fmt.Fprintln(out, answer); werr != nil {
			return werr
		}
		if f[0] == "quit" {
			return nil
		}
	}
	return lines.Err()
}

func command(p *Probe, f []string) (string, error) {
	switch f[0] {
	case "open":
		t0 := time.Now()
		if err := p.Open(); err != nil {
			return "", err
		}
		return fmt.Sprintf("opened agents=%d seconds=%.3f", len(p.agents), time.Since(t0).Seconds()), nil
	case "park":
		if err := p.Park(); err != nil {
			return "", err
		}
		return fmt.Sprintf("parked agents=%d", len(p.agents)), nil
	case "arm":
		p.Arm()
		return "armed", nil
	case "await":
		if len(f) != 3 {
			return "", fmt.Errorf("await: want SECONDS POST_US, got %q", strings.Join(f[1:], " "))
		}
		s, err := strconv.ParseFloat(f[1], 64)
		if err != nil {
			return "", fmt.Errorf("await: seconds %q: %w", f[1], err)
		}
		post, err := strconv.ParseInt(f[2], 10, 64)
		if err != nil {
			return "", fmt.Errorf("await: post_us %q: %w", f[2], err)
		}
		return p.Await(time.Duration(s*float64(time.Second)), post).Line(), nil
	case "quit":
		p.Close()
		return "bye", nil
	default:
		return "", fmt.Errorf("unknown command %q", f[0])
	}
}

// Line is the round as one line of key=value words (ms unless the name says otherwise).
func (r Round) Line() string {
	var b strings.Builder
	fmt.Fprintf(&b, "round events=%d unstamped=%d restamped=%d failed=%d published_min_us=%d cpu_ms=%s", r.Events,
		r.Unstamped, r.Restamped, r.Failed, r.PublishedMinUs, number(r.CPUMs))
	r.Delivered.fields(&b, "delivered")
	r.Read.fields(&b, "read")
	r.Update.fields(&b, "update")
	return b.String()
}
