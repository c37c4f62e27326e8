package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"weft.io/nic-agent/internal/contract"
)

// Bounds that only a fault breaks (a leak, a goroutine spinning, a timer firing in a loop): the
// goals themselves (<= 20 MB RSS, no measurable CPU) are figures of `./weft bench agent`, which runs
// this test over 30 s with WEFT_AGENT_IDLE_OUT set and compares them; CPU time read on a loaded
// CI machine is no pass/fail figure.
const (
	idleRSSLimitKiB = 32 * 1024
	idleCPULimitPct = 5.0
	defaultIdleSecs = 5
)

// TestIdleFootprint runs the real nic-agent binary (built here) on a fresh namespace against the
// fake scheduler-api, waits until its version is applied, then reads /proc over an idle window of
// WEFT_AGENT_IDLE_SECONDS (default 5; 30 in `./weft bench agent`): the largest RSS and the CPU time
// of all its threads (schedstat, ns). With probes off the agent only holds its stream and reports
// once a second; with probes on (the default, one ICMPv6 echo per entry per second) it also probes,
// and in this namespace nothing answers, so its entries turn ASSUMED_BAD: the window starts only
// once the agent's status names all four probed entries (each verdict re-applies the profile, which
// is work of a version change, not of idling). The reports it sent must name the rejected entry.
func TestIdleFootprint(t *testing.T) {
	secs := defaultIdleSecs
	if v := os.Getenv("WEFT_AGENT_IDLE_SECONDS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			t.Fatalf("WEFT_AGENT_IDLE_SECONDS=%q: want a number of seconds", v)
		}
		secs = n
	}
	bin := buildAgent(t)
	for _, c := range []struct {
		name  string
		probe string
	}{{"probes off", "0"}, {"probes every second", "1s"}} {
		t.Run(c.name, func(t *testing.T) {
			ns := newTestNetns(t)
			fake := newFakeScheduler(t, "tok-nic1", testProfile(1, cA))
			dir := t.TempDir()
			token := filepath.Join(dir, "token")
			if err := os.WriteFile(token, []byte("tok-nic1\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(bin, "run", "--server", fake.srv.URL, "--nic", "nic1", "--token-file", token,
				"--netns", ns, "--state-file", filepath.Join(dir, "state.json"), "--ev-file", filepath.Join(dir, "ev"),
				"--socket", filepath.Join(dir, "sock"), "--metrics-addr", "", "--log-level", "warn",
				"--probe-interval", c.probe)
			var logs bytes.Buffer
			cmd.Stderr = &logs
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() {
				_ = cmd.Process.Signal(syscall.SIGTERM)
				_ = cmd.Wait()
				if t.Failed() {
					t.Logf("agent log:\n%s", logs.String())
				}
			})
			waitFor(t, "version 1 applied by the agent process", func() bool {
				return strings.Contains(kernelRoutes(t, ns), cA)
			})
			if c.probe != "0" {
				waitForStatus(t, filepath.Join(dir, "sock"), "every probed entry ASSUMED_BAD", func(s Status) bool {
					return len(s.ProbeBad) == 4
				})
			}
			time.Sleep(3 * time.Second) // settle: first reports, the runtime's first GCs
			pid := cmd.Process.Pid
			cpu0 := processCPU(t, pid)
			maxRSS := 0
			for i := 0; i < secs; i++ {
				time.Sleep(time.Second)
				maxRSS = max(maxRSS, rssKiB(t, pid))
			}
			cpu := processCPU(t, pid) - cpu0
			pct := float64(cpu) / float64(time.Duration(secs)*time.Second) * 100
			t.Logf("idle %d s (%s): max RSS %.1f MB, CPU %.1f ms (%.3f %% of a core), %d reports received",
				secs, c.name, float64(maxRSS)/1024, float64(cpu)/1e6, pct, len(fake.reportsSoFar()))
			// The reports name what the agent refused of the profile (testProfile's bogus carrier).
			named := false
			for _, raw := range fake.reportsSoFar() {
				var r contract.FlowReport
				if json.Unmarshal(raw, &r) == nil && len(r.Rejected) == 1 && r.Rejected[0].EntryID() == "f4#srv6" &&
					r.Rejected[0].Peer == "nic3" && r.Rejected[0].Field == "peers[1].entries[2].carriers[1]" &&
					r.Rejected[0].Reason != "" {
					named = true
				}
			}
			if !named {
				t.Errorf("no report names the rejected entry f4#srv6: %d reports", len(fake.reportsSoFar()))
			}
			if maxRSS > idleRSSLimitKiB {
				t.Errorf("RSS %d KiB while idle, more than %d KiB: a leak?", maxRSS, idleRSSLimitKiB)
			}
			if pct > idleCPULimitPct {
				t.Errorf("CPU %.3f %% of a core while idle, more than %.1f %%: something runs in a loop", pct, idleCPULimitPct)
			}
			recordIdleFigures(t, idleFigures{Case: c.name, Seconds: secs, MaxRSSMB: float64(maxRSS) / 1024,
				CPUMs: float64(cpu) / 1e6, CPUPctOfCore: pct, Reports: len(fake.reportsSoFar())})
		})
	}
}

// idleFigures is one line of WEFT_AGENT_IDLE_OUT (JSON lines), read by `./weft bench agent`.
type idleFigures struct {
	Case         string  `json:"case"`
	Seconds      int     `json:"seconds"`
	MaxRSSMB     float64 `json:"max_rss_mb"`
	CPUMs        float64 `json:"cpu_ms"`
	CPUPctOfCore float64 `json:"cpu_pct_of_core"`
	Reports      int     `json:"reports"`
}

func recordIdleFigures(t *testing.T, f idleFigures) {
	t.Helper()
	path := os.Getenv("WEFT_AGENT_IDLE_OUT")
	if path == "" {
		return
	}
	line, err := json.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	out, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatalf("WEFT_AGENT_IDLE_OUT: %v", err)
	}
	defer out.Close()
	if _, err := out.Write(append(line, '\n')); err != nil {
		t.Fatalf("WEFT_AGENT_IDLE_OUT: %v", err)
	}
}

// waitForStatus polls the agent process's status on its unix socket until cond holds (30 s: the
// probes need several lost echoes per entry, slower on a loaded machine).
func waitForStatus(t *testing.T, socket, what string, cond func(Status) bool) {
	t.Helper()
	c := &http.Client{Timeout: 2 * time.Second, Transport: &http.Transport{
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			return (&net.Dialer{}).DialContext(ctx, "unix", socket)
		}}}
	defer c.CloseIdleConnections()
	var last Status
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		resp, err := c.Get("http://agent" + PathStatus)
		if err != nil {
			continue // the socket is not up yet
		}
		err = json.NewDecoder(resp.Body).Decode(&last)
		_ = resp.Body.Close()
		if err == nil && cond(last) {
			return
		}
	}
	t.Fatalf("timed out waiting for %s: last status %+v", what, last)
}

func buildAgent(t *testing.T) string {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go tool is needed to build the agent binary: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "nic-agent")
	out, err := exec.Command(goTool, "build", "-o", bin, "weft.io/nic-agent/cmd/nic-agent").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// processCPU is the CPU time of every thread of the process so far (/proc/PID/task/*/schedstat, ns).
func processCPU(t *testing.T, pid int) time.Duration {
	t.Helper()
	tasks, err := os.ReadDir("/proc/" + strconv.Itoa(pid) + "/task")
	if err != nil {
		t.Fatalf("the agent process is gone: %v", err)
	}
	var total time.Duration
	for _, task := range tasks {
		raw, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "task", task.Name(), "schedstat"))
		if err != nil {
			continue // the thread ended
		}
		ns, err := strconv.ParseInt(strings.Fields(string(raw))[0], 10, 64)
		if err == nil {
			total += time.Duration(ns)
		}
	}
	return total
}

// rssKiB is the process's resident set (VmRSS), KiB.
func rssKiB(t *testing.T, pid int) int {
	t.Helper()
	raw, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		t.Fatalf("the agent process is gone: %v", err)
	}
	for _, line := range strings.Split(string(raw), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmRSS:" {
			n, _ := strconv.Atoi(f[1])
			return n
		}
	}
	t.Fatal("no VmRSS in /proc/PID/status")
	return 0
}
