package model

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/openconfig/gnmi/proto/gnmi"
)

// Intent is DeviceIntent.render's output: {"target", "replace": [{"origin", "path", "value"}]}.
type Intent struct {
	Target  string `json:"target"`
	Replace []struct {
		Origin string          `json:"origin"`
		Path   string          `json:"path"`
		Value  json.RawMessage `json:"value"`
	} `json:"replace"`
}

// SetRequest turns an intent into the SetRequest the contract defines: prefix.target = the
// switch, one replace per op with the path string parsed into a gnmi.Path and the value as
// compact JSON in json_ietf_val.
func (in Intent) SetRequest() (*gnmi.SetRequest, error) {
	req := &gnmi.SetRequest{Prefix: &gnmi.Path{Target: in.Target}}
	for i, op := range in.Replace {
		p, err := ParsePath(op.Origin, op.Path)
		if err != nil {
			return nil, fmt.Errorf("replace[%d].path: %w", i, err)
		}
		var compact bytes.Buffer
		if err := json.Compact(&compact, op.Value); err != nil {
			return nil, fmt.Errorf("replace[%d].value: %w", i, err)
		}
		req.Replace = append(req.Replace, &gnmi.Update{Path: p,
			Val: &gnmi.TypedValue{Value: &gnmi.TypedValue_JsonIetfVal{JsonIetfVal: compact.Bytes()}}})
	}
	return req, nil
}

// ParsePath splits "/a/b[k=v]/c" into elements (keys in brackets; a "]" ends a key value, so
// values may hold "/" as in prefixes).
func ParsePath(origin, s string) (*gnmi.Path, error) {
	if !strings.HasPrefix(s, "/") {
		return nil, fmt.Errorf("%q does not start with /", s)
	}
	p := &gnmi.Path{Origin: origin}
	rest := s[1:]
	for rest != "" {
		var e gnmi.PathElem
		i := strings.IndexAny(rest, "/[")
		if i < 0 {
			e.Name, rest = rest, ""
		} else {
			e.Name, rest = rest[:i], rest[i:]
		}
		for strings.HasPrefix(rest, "[") {
			end := strings.Index(rest, "]")
			kv := rest[1:max(end, 1)]
			k, v, ok := strings.Cut(kv, "=")
			if end < 0 || !ok || k == "" {
				return nil, fmt.Errorf("%q: bad key in element %q", s, e.Name)
			}
			if e.Key == nil {
				e.Key = map[string]string{}
			}
			e.Key[k] = v
			rest = rest[end+1:]
		}
		if e.Name == "" {
			return nil, fmt.Errorf("%q: empty element", s)
		}
		p.Elem = append(p.Elem, &e)
		rest = strings.TrimPrefix(rest, "/")
	}
	return p, nil
}
