package agent

import (
	"testing"

	"weft.io/nic-agent/internal/scheduler"
)

func newClient(t *testing.T, server string) *scheduler.Client {
	t.Helper()
	c, err := scheduler.New(server, "nic1", "tok-nic1")
	if err != nil {
		t.Fatal(err)
	}
	return c
}
