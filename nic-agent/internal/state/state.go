// Package state keeps what the agent last applied in a file, so that after a restart it resumes
// from the same version and changes nothing in the kernel that is still right.
package state

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"weft.io/nic-agent/internal/host"
	"weft.io/nic-agent/internal/profile"
)

// State is the content of the state file.
type State struct {
	SchemaVersion int              `json:"schemaVersion"`
	NIC           string           `json:"nic"`
	SavedAt       time.Time        `json:"savedAt"`
	Profile       *profile.Profile `json:"profile"`            // the last profile applied
	Bad           []string         `json:"bad,omitempty"`      // entries the agent's probes found bad
	Applied       host.Desired     `json:"applied"`            // what that profile compiled to
	Failures      []host.Failure   `json:"failures,omitempty"` // routes the kernel refused
}

const schemaVersion = 1

// Load reads the state file; a missing file is (nil, nil).
func Load(path string) (*State, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("state file: %w", err)
	}
	var s State
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("state file %s: not JSON of the agent's state: %w", path, err)
	}
	if s.SchemaVersion != schemaVersion {
		return nil, fmt.Errorf("state file %s: schemaVersion %d, this agent reads %d", path, s.SchemaVersion, schemaVersion)
	}
	return &s, nil
}

// Save writes s atomically: readers (and a crash) see the old file or the new one, never half.
func Save(path string, s State) error {
	s.SchemaVersion = schemaVersion
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	return WriteAtomic(path, append(b, '\n'), 0o600)
}

// WriteAtomic writes data to a temporary file beside path, syncs it and renames it over path.
func WriteAtomic(path string, data []byte, perm fs.FileMode) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*")
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	tmp := f.Name()
	defer os.Remove(tmp) // a no-op after the rename
	if _, err := f.Write(data); err != nil {
		f.Close()
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := f.Chmod(perm); err != nil {
		f.Close()
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}
