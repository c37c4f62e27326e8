package model

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// Replace sets one subtree of c from its JSON_IETF value. Unknown fields are rejected, so a
// payload the agent would silently half-apply never gets that far.
func Replace(c *Config, s Subtree, raw []byte) error {
	where := s.String()
	switch s.Kind {
	case KindLocators:
		v := map[string]Locator{}
		if err := decode(raw, &v); err != nil {
			return Errorf(where, "", "%s", err)
		}
		c.Locators = v
	case KindSIDs:
		v := map[string]SID{}
		if err := decode(raw, &v); err != nil {
			return Errorf(where, "", "%s", err)
		}
		c.SIDs = v
	case KindInterface:
		var v Interface
		if err := decode(raw, &v); err != nil {
			return Errorf(where, "", "%s", err)
		}
		if v.Name != s.Name {
			return Errorf(where, "name", "%q differs from the path key %q", v.Name, s.Name)
		}
		c.Interfaces[s.Name] = v
	case KindInstance:
		var v Instance
		if err := decode(raw, &v); err != nil {
			return Errorf(where, "", "%s", err)
		}
		if v.Name != s.Name {
			return Errorf(where, "name", "%q differs from the path key %q", v.Name, s.Name)
		}
		c.Instances[s.Name] = v
	case KindStatic:
		var v Static
		if err := decode(raw, &v); err != nil {
			return Errorf(where, "", "%s", err)
		}
		if v.Prefix != s.Prefix {
			return Errorf(where, "prefix", "%q differs from the path key %q", v.Prefix, s.Prefix)
		}
		inst, i, err := protocolOf(c, s)
		if err != nil {
			return err
		}
		routes := inst.Protocols.Protocol[i].StaticRoutes.Static
		next := make([]Static, 0, len(routes)+1)
		replaced := false
		for _, r := range routes {
			if r.Prefix == s.Prefix {
				r, replaced = v, true
			}
			next = append(next, r)
		}
		if !replaced {
			next = append(next, v)
		}
		setRoutes(c, s, inst, i, next)
	default:
		return Errorf(where, "", "not replaceable")
	}
	return nil
}

// protocolOf finds the instance and protocol a route path names. A single route goes into an
// existing protocol only: the instance (with its protocols) is replaced whole first.
func protocolOf(c *Config, s Subtree) (Instance, int, error) {
	inst, ok := c.Instances[s.Name]
	if !ok {
		return Instance{}, 0, Errorf(s.String(), "", "network instance %q does not exist; replace it whole first", s.Name)
	}
	for i, p := range inst.Protocols.Protocol {
		if p.Identifier == s.Identifier && p.Name == s.Protocol {
			return inst, i, nil
		}
	}
	return Instance{}, 0, Errorf(s.String(), "", "network instance %q has no protocol %s %s; replace the instance whole",
		s.Name, s.Identifier, s.Protocol)
}

// setRoutes stores a protocol's new route list on copies of the instance's slices: the
// configuration the Set started from shares them and must stay intact for a rollback.
func setRoutes(c *Config, s Subtree, inst Instance, i int, routes []Static) {
	protos := append([]Protocol(nil), inst.Protocols.Protocol...)
	protos[i].StaticRoutes.Static = routes
	inst.Protocols.Protocol = protos
	c.Instances[s.Name] = inst
}

// Delete removes what Weft owns under one subtree. An interface is a port, not Weft's to remove:
// deleting it removes its addresses and leaves its admin state as it is.
func Delete(c *Config, s Subtree) {
	switch s.Kind {
	case KindLocators:
		c.Locators = map[string]Locator{}
	case KindSIDs:
		c.SIDs = map[string]SID{}
	case KindInterface:
		if cur, ok := c.Interfaces[s.Name]; ok {
			c.Interfaces[s.Name] = NewInterface(s.Name, cur.Config.Enabled, nil)
		}
	case KindInstance:
		delete(c.Instances, s.Name)
	case KindStatic:
		// Deleting what is not there is no error (gNMI delete semantics).
		inst, i, err := protocolOf(c, s)
		if err != nil {
			return
		}
		var next []Static
		for _, r := range inst.Protocols.Protocol[i].StaticRoutes.Static {
			if r.Prefix != s.Prefix {
				next = append(next, r)
			}
		}
		if next == nil {
			next = []Static{}
		}
		setRoutes(c, s, inst, i, next)
	}
}

// Value is one subtree of c as compact JSON, in the shape Replace accepts; ok is false when
// c has nothing there (Get answers NOT_FOUND).
func Value(c Config, s Subtree) (raw []byte, ok bool) {
	var v any
	switch s.Kind {
	case KindLocators:
		if len(c.Locators) == 0 {
			return nil, false
		}
		v = c.Locators
	case KindSIDs:
		if len(c.SIDs) == 0 {
			return nil, false
		}
		v = c.SIDs
	case KindInterface:
		i, found := c.Interfaces[s.Name]
		if !found {
			return nil, false
		}
		v = i
	case KindInstance:
		i, found := c.Instances[s.Name]
		if !found {
			return nil, false
		}
		v = i
	case KindStatic:
		inst, i, err := protocolOf(&c, s)
		if err != nil {
			return nil, false
		}
		found := false
		for _, r := range inst.Protocols.Protocol[i].StaticRoutes.Static {
			if r.Prefix == s.Prefix {
				v, found = r, true
			}
		}
		if !found {
			return nil, false
		}
	default:
		return nil, false
	}
	raw, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("model: marshal %s: %v", s, err)) // plain structs and maps: cannot fail
	}
	return raw, true
}

func decode(raw []byte, into any) error {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.DisallowUnknownFields()
	if err := d.Decode(into); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return fmt.Errorf("field %q: JSON %s where %s belongs", te.Field, te.Value, te.Type)
		}
		return err
	}
	if _, err := d.Token(); err != io.EOF {
		return errors.New("trailing data after the JSON value")
	}
	return nil
}
