package telemetry

import (
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/openconfig/gnmi/proto/gnmi"
)

type vectorFile struct {
	Cases []struct {
		Name    string            `json:"name"`
		Record  string            `json:"record"`
		Samples []json.RawMessage `json:"samples"`
		Error   string            `json:"error"`
	} `json:"cases"`
}

// notificationFor rebuilds the notification gnmic received for one recorded event (in canonical
// form: numbers as decimal strings): each tag <list>_<key> is a key of the element <list>.
func notificationFor(ev map[string]any) (*gnmi.Notification, string, bool) {
	tags := map[string]string{}
	for k, v := range ev["tags"].(map[string]any) {
		tags[k] = v.(string)
	}
	ts, err := strconv.ParseInt(fmt.Sprint(ev["timestamp"]), 10, 64)
	if err != nil || tags["target"] == "" || tags["source"] == "" {
		return nil, "", false
	}
	n := &gnmi.Notification{Timestamp: ts, Prefix: &gnmi.Path{Target: tags["target"]}}
	for path, v := range ev["values"].(map[string]any) {
		if strings.Contains(path, ":") {
			return nil, "", false // origin or module prefixes: not what this subscriber writes
		}
		var elems []*gnmi.PathElem
		for _, name := range strings.Split(strings.Trim(path, "/"), "/") {
			e := &gnmi.PathElem{Name: name}
			for tag, val := range tags {
				list, key, ok := strings.Cut(tag, "_")
				if ok && list == name {
					if e.Key == nil {
						e.Key = map[string]string{}
					}
					e.Key[key] = val
				}
			}
			elems = append(elems, e)
		}
		x, ok := v.(string)
		if !ok {
			return nil, "", false
		}
		tv := &gnmi.TypedValue{Value: &gnmi.TypedValue_StringVal{StringVal: x}}
		if u, err := strconv.ParseUint(x, 10, 64); err == nil && strconv.FormatUint(u, 10) == x {
			tv = &gnmi.TypedValue{Value: &gnmi.TypedValue_UintVal{UintVal: u}}
		}
		n.Update = append(n.Update, &gnmi.Update{Path: &gnmi.Path{Elem: elems}, Val: tv})
	}
	return n, tags["source"], true
}

// canonical makes numbers and decimal strings alike (gnmic writes uint64 either way) and keeps
// everything else, so the comparison is on the record's shape and content.
func canonical(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, c := range x {
			out[k] = canonical(c)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, c := range x {
			out[i] = canonical(c)
		}
		return out
	case json.Number:
		return x.String()
	}
	return v
}

func decode(t *testing.T, s string) any {
	t.Helper()
	d := json.NewDecoder(strings.NewReader(s))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	return canonical(v)
}

// Every valid record of the shared gnmic vectors that has this subscriber's shape (plain paths,
// source and target tags) is reproduced exactly from the notification it stands for.
func TestEventsReproduceTheSharedGnmicVectors(t *testing.T) {
	raw, err := os.ReadFile("../../../../contracts/vectors/gnmic-events.json")
	if err != nil {
		t.Fatal(err)
	}
	var vf vectorFile
	if err := json.Unmarshal(raw, &vf); err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, c := range vf.Cases {
		if c.Error != "" || len(c.Samples) == 0 {
			continue
		}
		rec := decode(t, c.Record)
		var events []any
		if arr, ok := rec.([]any); ok {
			events = arr
		} else {
			events = []any{rec}
		}
		var ours []Event
		usable := true
		for _, e := range events {
			ev, _ := e.(map[string]any)
			if ev == nil {
				usable = false
				break
			}
			n, source, ok := notificationFor(ev)
			if !ok {
				usable = false
				break
			}
			evs := Events(n, source, ev["name"].(string))
			if _, tagged := ev["tags"].(map[string]any)["subscription-name"]; !tagged {
				// a hand-written vector without the tag gnmic always adds: compare the rest
				for _, x := range evs {
					delete(x.Tags, "subscription-name")
				}
			}
			ours = append(ours, evs...)
		}
		if !usable {
			continue
		}
		t.Run(c.Name, func(t *testing.T) {
			b, err := json.Marshal(ours)
			if err != nil {
				t.Fatal(err)
			}
			got := decode(t, string(b))
			want := any(events)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("record differs from gnmic's:\n got  %s\n want %s", b, c.Record)
			}
		})
		checked++
	}
	if checked < 8 {
		t.Fatalf("only %d vector cases have this subscriber's shape; the vectors changed?", checked)
	}
}
