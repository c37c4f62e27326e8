// Package telemetry subscribes to switch agents over gNMI and writes what they stream to Kafka in
// gnmic's "event" format (contracts/schemas/gnmic-event.schema.json), so the telemetry collector
// cannot tell this subscriber from gnmic.
package telemetry

import (
	"encoding/json"
	"sort"
	"strings"

	"github.com/openconfig/gnmi/proto/gnmi"
)

// Event is one gnmic event: the values of one notification that share the same path keys.
type Event struct {
	Name      string            `json:"name"`
	Timestamp int64             `json:"timestamp"`
	Tags      map[string]string `json:"tags"`
	Values    map[string]any    `json:"values"`
}

// Events converts a notification the way gnmic's event formatter does: every list key on the
// path becomes a tag <list>_<key>; the value key is the path without keys (origin: in front when
// the path has an origin); updates with the same tags form one event. source is the switch's
// address as subscribed to, target the prefix target, subscription the subscription name.
func Events(n *gnmi.Notification, source, subscription string) []Event {
	base := map[string]string{"source": source, "subscription-name": subscription}
	if t := n.GetPrefix().GetTarget(); t != "" {
		base["target"] = t
	}
	byTags := map[string]*Event{}
	var order []string
	for _, u := range n.GetUpdate() {
		tags := map[string]string{}
		for k, v := range base {
			tags[k] = v
		}
		elems := append(append([]*gnmi.PathElem{}, n.GetPrefix().GetElem()...), u.GetPath().GetElem()...)
		var b strings.Builder
		origin := u.GetPath().GetOrigin()
		if origin == "" {
			origin = n.GetPrefix().GetOrigin()
		}
		if origin != "" {
			b.WriteString(origin + ":")
		}
		for _, e := range elems {
			b.WriteString("/" + e.GetName())
			for k, v := range e.GetKey() {
				tags[e.GetName()+"_"+k] = v
			}
		}
		val, ok := value(u.GetVal())
		if !ok {
			continue
		}
		id := tagID(tags)
		ev, seen := byTags[id]
		if !seen {
			ev = &Event{Name: subscription, Timestamp: n.GetTimestamp(), Tags: tags, Values: map[string]any{}}
			byTags[id] = ev
			order = append(order, id)
		}
		ev.Values[b.String()] = val
	}
	out := make([]Event, 0, len(order))
	for _, id := range order {
		out = append(out, *byTags[id])
	}
	return out
}

func tagID(tags map[string]string) string {
	keys := make([]string, 0, len(tags))
	for k := range tags {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		b.WriteString(k + "\x00" + tags[k] + "\x00")
	}
	return b.String()
}

// value is a TypedValue as gnmic writes it into an event: numbers as JSON numbers, JSON values decoded.
func value(v *gnmi.TypedValue) (any, bool) {
	switch x := v.GetValue().(type) {
	case *gnmi.TypedValue_UintVal:
		return x.UintVal, true
	case *gnmi.TypedValue_IntVal:
		return x.IntVal, true
	case *gnmi.TypedValue_StringVal:
		return x.StringVal, true
	case *gnmi.TypedValue_BoolVal:
		return x.BoolVal, true
	case *gnmi.TypedValue_DoubleVal:
		return x.DoubleVal, true
	case *gnmi.TypedValue_JsonIetfVal:
		var d any
		return d, json.Unmarshal(x.JsonIetfVal, &d) == nil
	case *gnmi.TypedValue_JsonVal:
		var d any
		return d, json.Unmarshal(x.JsonVal, &d) == nil
	}
	return nil, false
}
