package telemetry

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"log"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

const scram512 = "SCRAM-SHA-512"

// selfSigned makes a certificate for 127.0.0.1; returns the server's TLS config and the PEM file a
// client trusts.
func selfSigned(t *testing.T) (*tls.Config, string) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "kafka"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, IsCA: true, BasicConstraintsValid: true,
		KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign}
	der, err := x509.CreateCertificate(rand.Reader, tpl, tpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	caFile := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(caFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	return &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key}}}, caFile
}

// A broker speaking only SCRAM-SHA-512 over TLS with the grants of contracts/topics.json: weft-gnmic
// may write the telemetry topic and nothing else; weft-telemetry (this publisher) may also read the
// fabric.
func secureCluster(t *testing.T) (addr, caFile string) {
	t.Helper()
	server, ca := selfSigned(t)
	c, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.TLS(server), kfake.EnableSASL(), kfake.EnableACLs(),
		kfake.Superuser(scram512, "weft-admin", "admin-secret"),
		kfake.User(scram512, "weft-gnmic", "gnmic-secret", kfake.ACL{Resource: kmsg.ACLResourceTypeTopic,
			Name: TelemetryTopic, Pattern: kmsg.ACLResourcePatternTypeLiteral, Operation: kmsg.ACLOperationWrite,
			Allow: true}),
		kfake.User(scram512, "weft-telemetry", "telemetry-secret",
			kfake.ACL{Resource: kmsg.ACLResourceTypeTopic, Name: TelemetryTopic,
				Pattern: kmsg.ACLResourcePatternTypeLiteral, Operation: kmsg.ACLOperationWrite, Allow: true},
			kfake.ACL{Resource: kmsg.ACLResourceTypeTopic, Name: FabricTopic,
				Pattern: kmsg.ACLResourcePatternTypeLiteral, Operation: kmsg.ACLOperationRead, Allow: true}),
		kfake.SeedTopics(1, TelemetryTopic, FabricTopic))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c.ListenAddrs()[0], ca
}

func login(t *testing.T, user, password, caFile string) []kgo.Opt {
	t.Helper()
	env := map[string]string{EnvProtocol: "SASL_SSL", EnvUsername: user, EnvPassword: password, EnvCAFile: caFile}
	opts, err := KafkaLogin(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	return opts
}

func produce(t *testing.T, addr string, login []kgo.Opt, topic string) error {
	t.Helper()
	cl, err := kgo.NewClient(append([]kgo.Opt{kgo.SeedBrokers(addr), kgo.RequestRetries(0),
		kgo.RecordRetries(0)}, login...)...)
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return cl.ProduceSync(ctx, &kgo.Record{Topic: topic, Key: []byte("leaf1"), Value: []byte("[]")}).FirstErr()
}

func TestKafkaLoginOnASecureBroker(t *testing.T) {
	addr, ca := secureCluster(t)
	env := map[string]string{EnvProtocol: "SASL_SSL", EnvUsername: "weft-gnmic", EnvPassword: "gnmic-secret",
		EnvCAFile: ca}
	loginWith := func(change map[string]string) []kgo.Opt {
		e := map[string]string{}
		for k, v := range env {
			e[k] = v
		}
		for k, v := range change {
			e[k] = v
		}
		opts, err := KafkaLogin(func(k string) string { return e[k] })
		if err != nil {
			t.Fatal(err)
		}
		return opts
	}
	if err := produce(t, addr, loginWith(nil), TelemetryTopic); err != nil {
		t.Fatalf("weft-gnmic writing %s: %v", TelemetryTopic, err)
	}
	for _, tc := range []struct {
		name  string
		login []kgo.Opt
		topic string
	}{
		{"its own login on weft.fabric", loginWith(nil), FabricTopic},
		{"a wrong password", loginWith(map[string]string{EnvPassword: "guess"}), TelemetryTopic},
		{"no login at all", nil, TelemetryTopic},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := produce(t, addr, tc.login, tc.topic); err == nil {
				t.Fatalf("%s: the write to %s was accepted", tc.name, tc.topic)
			} else {
				t.Logf("refused: %v", err)
			}
		})
	}
}

// --follow-fabric as weft-telemetry reads the snapshot and writes counters; weft-gnmic (a fixed
// target list in deploy/) gets no fabric.
func TestTheLabPublisherFollowsTheFabricAsItsOwnPrincipal(t *testing.T) {
	addr, ca := secureCluster(t)
	admin := login(t, "weft-admin", "admin-secret", ca)
	snapshot := `{"schemaVersion":1,"fabricId":"t","version":1,"fabric":{"nodes":[{"id":"sw1","role":"leaf"}]}}`
	cl, err := kgo.NewClient(append([]kgo.Opt{kgo.SeedBrokers(addr)}, admin...)...)
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := cl.ProduceSync(ctx, &kgo.Record{Topic: FabricTopic, Key: []byte("t"), Value: []byte(snapshot)}).FirstErr(); err != nil {
		t.Fatal(err)
	}
	// follow returns the switches FollowFabric saw within the time given, and what it logged.
	follow := func(creds []kgo.Opt, within time.Duration) ([]Target, string) {
		var logged strings.Builder
		var seen []Target
		fctx, stop := context.WithTimeout(ctx, within)
		defer stop()
		err := FollowFabric(fctx, []string{addr}, creds, FabricTopic, log.New(&logged, "", 0), func(f *Fabrics) {
			seen, _ = f.Targets(map[string]string{"sw1": "sw1:9339"})
			stop()
		})
		if err != nil {
			t.Fatal(err)
		}
		return seen, logged.String()
	}
	telemetry := login(t, "weft-telemetry", "telemetry-secret", ca)
	if seen, logged := follow(telemetry, 8*time.Second); len(seen) != 1 {
		t.Fatalf("weft-telemetry following %s: switches %v, logged %q", FabricTopic, seen, logged)
	}
	if err := produce(t, addr, telemetry, TelemetryTopic); err != nil {
		t.Fatalf("weft-telemetry writing %s: %v", TelemetryTopic, err)
	}
	seen, logged := follow(login(t, "weft-gnmic", "gnmic-secret", ca), 2*time.Second)
	if len(seen) != 0 || !strings.Contains(logged, "TOPIC_AUTHORIZATION_FAILED") {
		t.Fatalf("weft-gnmic following %s: switches %v, logged %q; want an authorization failure", FabricTopic,
			seen, logged)
	}
}

func TestKafkaLoginRefusesUnusableSettingsByName(t *testing.T) {
	for _, tc := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{EnvUsername: "u", EnvPassword: "p"}, "never sent over plaintext"},
		{map[string]string{EnvProtocol: "SASL_PLAINTEXT"}, EnvProtocol},
		{map[string]string{EnvProtocol: "SASL_SSL", EnvPassword: "p"}, EnvUsername + ": required"},
		{map[string]string{EnvProtocol: "SASL_SSL", EnvUsername: "u"}, "exactly one of"},
		{map[string]string{EnvProtocol: "SASL_SSL", EnvUsername: "u", EnvPasswordFile: "/nonexistent"},
			EnvPasswordFile},
	} {
		_, err := KafkaLogin(func(k string) string { return tc.env[k] })
		if !errors.Is(err, ErrKafkaLogin) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: got %v, want an ErrKafkaLogin naming %q", tc.env, err, tc.want)
		}
	}
	if opts, err := KafkaLogin(func(string) string { return "" }); err != nil || opts != nil {
		t.Errorf("nothing set: got %v, %v; want plaintext (no options)", opts, err)
	}
}
