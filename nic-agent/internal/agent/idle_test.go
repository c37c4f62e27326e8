package agent

import (
	"bytes"
	"encoding/json"
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

// Idle goals of the agent between versions: what a GPU host gives up to it.
const (
	idleRSSGoalKiB  = 20 * 1024
	idleCPUGoalPct  = 1.0
	defaultIdleSecs = 5
)

// TestIdleFootprint runs the real nic-agent binary (built here) on a fresh namespace against the
// fake scheduler-api, waits until its version is applied, then reads /proc over an idle window of
// WEFT_AGENT_IDLE_SECONDS (default 5; 30 for the figures in the README): the largest RSS and the
// CPU time of all its threads (schedstat, ns). With probes off the agent only holds its stream
// and reports once a second; with probes on (the default, one ICMPv6 echo per entry per second)
// it also probes, and in this namespace nothing answers, so its entries turn ASSUMED_BAD first
// (the settle seconds below cover that). The reports it sent must name the profile's rejected entry.
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
			time.Sleep(5 * time.Second) // settle: first reports, probes' verdicts, the runtime's first GCs
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
			if maxRSS > idleRSSGoalKiB {
				t.Errorf("RSS %d KiB, goal <= %d KiB", maxRSS, idleRSSGoalKiB)
			}
			if pct > idleCPUGoalPct {
				t.Errorf("CPU %.3f %% of a core while idle, goal <= %.1f %%", pct, idleCPUGoalPct)
			}
		})
	}
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
