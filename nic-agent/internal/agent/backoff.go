package agent

import (
	"math/rand/v2"
	"time"
)

// backoff spaces out retries while scheduler-api cannot be reached: doubling from base up to
// max, each wait drawn from [d/2, d] so that thousands of agents cut off at once do not return
// in lockstep.
type backoff struct {
	base, max time.Duration
	failures  int
}

func (b *backoff) next() time.Duration {
	d := b.base << min(b.failures, 30)
	if d <= 0 || d > b.max {
		d = b.max
	}
	b.failures++
	return d/2 + rand.N(d/2+1)
}

func (b *backoff) reset() { b.failures = 0 }
