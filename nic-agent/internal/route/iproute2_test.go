package route

import (
	"context"
	"errors"
	"os/exec"
	"reflect"
	"strings"
	"testing"
)

// recorder is a fake ip: it records each invocation and answers from a script.
type recorder struct {
	calls   [][]string
	answers []func() ([]byte, error)
}

func (f *recorder) run(_ context.Context, args []string) ([]byte, error) {
	f.calls = append(f.calls, args)
	if len(f.answers) == 0 {
		return nil, nil
	}
	a := f.answers[0]
	f.answers = f.answers[1:]
	return a()
}

func fakeIPRoute(f *recorder) *IPRoute { return &IPRoute{run: f.run} }

func failing(stderr string) func() ([]byte, error) {
	return func() ([]byte, error) {
		return nil, &cmdError{args: []string{"-6", "route"}, stderr: stderr, err: &exec.ExitError{}}
	}
}

func TestReplaceEncapCommand(t *testing.T) {
	tests := []struct {
		name     string
		carriers []string
		via      string
		want     []string
	}{
		{"one carrier via gateway", []string{"fcbb:bb00:1:12:2:e000::"}, "2001:db8:ff::2",
			[]string{"-6", "route", "replace", "2001:db8:1::/64", "encap", "seg6", "mode", "encap.red",
				"segs", "fcbb:bb00:1:12:2:e000::", "dev", "eth0", "via", "2001:db8:ff::2", "proto", "200"}},
		{"two carriers on-link", []string{"fcbb:bb00:1:2:3:4:5:6", "fcbb:bb00:7::"}, "",
			[]string{"-6", "route", "replace", "2001:db8:1::/64", "encap", "seg6", "mode", "encap.red",
				"segs", "fcbb:bb00:1:2:3:4:5:6,fcbb:bb00:7::", "dev", "eth0", "proto", "200"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := &recorder{}
			if err := fakeIPRoute(f).ReplaceEncap(context.Background(), "2001:db8:1::/64", tt.carriers, "eth0", tt.via); err != nil {
				t.Fatal(err)
			}
			if len(f.calls) != 1 || !reflect.DeepEqual(f.calls[0], tt.want) {
				t.Fatalf("ip calls = %q, want one call %q", f.calls, tt.want)
			}
		})
	}
}

func TestReplaceEncapRejectsBadInputNamingTheField(t *testing.T) {
	good := []string{"fcbb:bb00:1::"}
	tests := []struct {
		name, dst string
		carriers  []string
		dev, via  string
		field     string
	}{
		{"dst not a prefix", "2001:db8::1", good, "eth0", "", "dst"},
		{"dst IPv4", "10.0.0.0/8", good, "eth0", "", "dst"},
		{"dst host bits", "2001:db8::1/64", good, "eth0", "", "dst"},
		{"no carriers", "2001:db8::/64", nil, "eth0", "", "carriers"},
		{"bad carrier", "2001:db8::/64", []string{"fcbb:bb00:1::", "nope"}, "eth0", "", "carriers[1]"},
		{"empty dev", "2001:db8::/64", good, "", "", "dev"},
		{"dev too long", "2001:db8::/64", good, "a-very-long-ifname", "", "dev"},
		{"dev with space", "2001:db8::/64", good, "eth0 via", "", "dev"},
		{"via IPv4", "2001:db8::/64", good, "eth0", "10.0.0.1", "via"},
		{"via with zone", "2001:db8::/64", good, "eth0", "fe80::1%eth0", "via"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := &recorder{}
			err := fakeIPRoute(f).ReplaceEncap(context.Background(), tt.dst, tt.carriers, tt.dev, tt.via)
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("error = %v, want ErrInvalid", err)
			}
			if !strings.HasPrefix(err.Error(), tt.field+":") {
				t.Fatalf("error %q does not start with the field name %q", err, tt.field)
			}
			if len(f.calls) != 0 {
				t.Fatalf("ip was called with invalid input: %q", f.calls)
			}
		})
	}
}

func TestErrorsAreClassified(t *testing.T) {
	f := &recorder{answers: []func() ([]byte, error){
		failing("RTNETLINK answers: No such process"),
		failing("RTNETLINK answers: Operation not supported"),
		failing("RTNETLINK answers: No route to host"),
	}}
	r := fakeIPRoute(f)
	ctx := context.Background()
	if err := r.Delete(ctx, "2001:db8::/64"); !errors.Is(err, ErrNoRoute) {
		t.Errorf("Delete of a missing route: %v, want ErrNoRoute", err)
	}
	err := r.ReplaceEncap(ctx, "2001:db8::/64", []string{"fcbb:bb00:1::"}, "eth0", "")
	if !errors.Is(err, ErrUnsupported) {
		t.Errorf("replace without seg6: %v, want ErrUnsupported", err)
	}
	err = r.ReplaceEncap(ctx, "2001:db8::/64", []string{"fcbb:bb00:1::"}, "eth0", "2001:db8:ee::1")
	if err == nil || errors.Is(err, ErrNoRoute) || errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), "No route to host") {
		t.Errorf("unreachable gateway: %v, want the ip message and no sentinel", err)
	}
}

// listOutput is real `ip -j -6 route show proto 200` output from iproute2 6.1.
const listOutput = `[{"dst":"2001:db8:1::5","encap":"seg6","mode":"encap.red","segs":["fcbb:bb00:1::"],"dev":"v0","metric":1024,"flags":[],"pref":"medium"},` +
	`{"dst":"2001:db8:100::/64","encap":"seg6","mode":"encap.red","segs":["fcbb:bb00:1:2:3:4:5:6","fcbb:bb00:7::"],"gateway":"2001:db8:ff::2","dev":"v0","metric":1024,"flags":[],"pref":"medium"},` +
	`{"dst":"default","dev":"v0","metric":1024,"flags":[],"pref":"medium"}]`

func TestListParsesIPJSON(t *testing.T) {
	f := &recorder{answers: []func() ([]byte, error){func() ([]byte, error) { return []byte(listOutput), nil }}}
	got, err := fakeIPRoute(f).List(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := []Route{
		{Dst: "2001:db8:1::5/128", Carriers: []string{"fcbb:bb00:1::"}, Dev: "v0"},
		{Dst: "2001:db8:100::/64", Carriers: []string{"fcbb:bb00:1:2:3:4:5:6", "fcbb:bb00:7::"}, Dev: "v0", Via: "2001:db8:ff::2"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("List = %+v, want %+v", got, want)
	}
	if wantArgs := []string{"-j", "-6", "route", "show", "proto", "200"}; !reflect.DeepEqual(f.calls[0], wantArgs) {
		t.Fatalf("ip args = %q, want %q", f.calls[0], wantArgs)
	}
}

func TestListRetriesInterruptedDumps(t *testing.T) {
	interrupted := failing("Dump was interrupted and may be inconsistent.")
	tests := []struct {
		name    string
		answers []func() ([]byte, error)
		calls   int
		wantErr bool
	}{
		{"once then fine", []func() ([]byte, error){interrupted, func() ([]byte, error) { return []byte("[]"), nil }}, 2, false},
		{"always interrupted", []func() ([]byte, error){interrupted, interrupted, interrupted, interrupted}, dumpAttempts, true},
		{"other errors are not retried", []func() ([]byte, error){failing("Cannot open netns"), interrupted}, 1, true},
		{"empty output is no routes", []func() ([]byte, error){func() ([]byte, error) { return nil, nil }}, 1, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := &recorder{answers: tt.answers}
			routes, err := fakeIPRoute(f).List(context.Background())
			if (err != nil) != tt.wantErr || len(routes) != 0 {
				t.Fatalf("List = %v, %v; want error: %v", routes, err, tt.wantErr)
			}
			if len(f.calls) != tt.calls {
				t.Fatalf("ip ran %d times, want %d", len(f.calls), tt.calls)
			}
		})
	}
}

func TestListRejectsGarbage(t *testing.T) {
	f := &recorder{answers: []func() ([]byte, error){func() ([]byte, error) { return []byte("not json"), nil }}}
	if _, err := fakeIPRoute(f).List(context.Background()); err == nil {
		t.Fatal("List accepted output that is not JSON")
	}
}
