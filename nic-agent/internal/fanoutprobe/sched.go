package fanoutprobe

import (
	"fmt"
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// SetIdle puts every thread of this process under SCHED_IDLE, as `chrt --idle 0` would: the
// simulated agents then run only on CPU that nothing else (the service, PostgreSQL) wants, as
// agents on their own hosts would cost the service's host nothing. Threads started later inherit
// the policy from the thread that starts them; the sweep repeats until it finds no new thread.
func SetIdle() error {
	done := map[int]bool{}
	for {
		tids, err := threads()
		if err != nil {
			return err
		}
		fresh := 0
		for _, tid := range tids {
			if done[tid] {
				continue
			}
			fresh++
			attr := unix.SchedAttr{Size: unix.SizeofSchedAttr, Policy: unix.SCHED_IDLE}
			if err := unix.SchedSetAttr(tid, &attr, 0); err != nil && err != unix.ESRCH {
				return fmt.Errorf("sched_setattr(%d, SCHED_IDLE): %w", tid, err)
			}
			done[tid] = true
		}
		if fresh == 0 {
			return nil
		}
	}
}

// Policies returns the scheduling policy of every thread of this process (SCHED_IDLE is 5).
func Policies() (map[int]int, error) {
	tids, err := threads()
	if err != nil {
		return nil, err
	}
	out := map[int]int{}
	for _, tid := range tids {
		attr, err := unix.SchedGetAttr(tid, 0)
		if err != nil {
			continue // the thread ended
		}
		out[tid] = int(attr.Policy)
	}
	return out, nil
}

func threads() ([]int, error) {
	entries, err := os.ReadDir("/proc/self/task")
	if err != nil {
		return nil, fmt.Errorf("threads: %w", err)
	}
	var tids []int
	for _, e := range entries {
		if tid, err := strconv.Atoi(e.Name()); err == nil {
			tids = append(tids, tid)
		}
	}
	return tids, nil
}
