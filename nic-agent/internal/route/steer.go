package route

import (
	"context"
	"fmt"
)

// Entropy-value (udp-sport) traffic is not encapsulated: the fabric's switches hash its UDP source
// port onto a path. On a NIC with one port per plane the port it leaves by picks the plane, so
// an EV entry naming a port is steered there by policy routing: one `ip rule` per (peer, source
// port) sends matching UDP packets to the port's own table, which holds one default route out that
// port. Everything else keeps using the main table (the uplink).
//
// The agent owns the rules at SteerPriority stamped with Protocol whose table lies in
// FirstSteerTable..+MaxSteerTables, and the routes of those tables; it never touches others.
const (
	FirstSteerTable = 0x5746_0000 // next to the probes' 0x5745_0000 range
	MaxSteerTables  = 4096
	// SteerPriority sits after the probes' rules (100) and before the main table (32766).
	SteerPriority = 110
)

// Steer sends UDP packets to Peer with source port Sport through the port table Table.
type Steer struct {
	Peer  string `json:"peer"` // the peer's IPv6 address
	Sport int    `json:"sport"`
	Table int    `json:"table"`
}

// PortTable is one port's routing table: a default route out Dev via Via.
type PortTable struct {
	Table int    `json:"table"`
	Dev   string `json:"dev"`
	Via   string `json:"via,omitempty"` // empty when the port's leaf is on-link
}

// Steering is every steer and port table the agent holds.
type Steering struct {
	Tables []PortTable `json:"tables,omitempty"`
	Rules  []Steer     `json:"rules,omitempty"`
}

// Steerer programs the steering. Like Programmer it lists and deletes only what it made.
type Steerer interface {
	// ListSteering returns the agent's port tables and rules as the kernel holds them.
	ListSteering(ctx context.Context) (Steering, error)
	// ReplaceTable creates or replaces the default route of a port table.
	ReplaceTable(ctx context.Context, t PortTable) error
	// DeleteTable removes the routes of a port table.
	DeleteTable(ctx context.Context, table int) error
	// AddSteer adds one rule; adding a rule the kernel holds already is not an error.
	AddSteer(ctx context.Context, s Steer) error
	// DeleteSteer removes one rule; ErrNoRoute when there is none.
	DeleteSteer(ctx context.Context, s Steer) error
}

// CheckSteer validates a rule at the boundary, naming the bad field.
func CheckSteer(s Steer) error {
	if _, err := checkAddr("peer", s.Peer); err != nil {
		return err
	}
	if s.Sport < 0 || s.Sport > 65535 {
		return fmt.Errorf("sport: %d is not a UDP port: %w", s.Sport, ErrInvalid)
	}
	return checkTable(s.Table)
}

// CheckTable validates a port table at the boundary, naming the bad field.
func CheckTable(t PortTable) error {
	if err := checkTable(t.Table); err != nil {
		return err
	}
	if err := checkDev(t.Dev); err != nil {
		return err
	}
	if t.Via != "" {
		if _, err := checkAddr("via", t.Via); err != nil {
			return err
		}
	}
	return nil
}

// ownsTable reports whether table is one of the agent's port tables (the only ones it touches).
func ownsTable(table int) bool {
	return table >= FirstSteerTable && table < FirstSteerTable+MaxSteerTables
}

func checkTable(table int) error {
	if !ownsTable(table) {
		return fmt.Errorf("table: %d is outside the agent's %#x..%#x: %w", table, FirstSteerTable,
			FirstSteerTable+MaxSteerTables-1, ErrInvalid)
	}
	return nil
}

// Kernel is everything the agent programs: the SRv6 routes and the EV steering.
type Kernel interface {
	Programmer
	Steerer
}
