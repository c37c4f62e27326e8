package main

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/openconfig/gnmi/proto/gnmi"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
	"weft.io/switch-agent/internal/nstest"
)

// testCA is a certificate authority made for one test: it signs the switch's certificate, and its
// pool is what a client that trusts it presents.
type testCA struct {
	cert *x509.Certificate
	key  *ecdsa.PrivateKey
	pool *x509.CertPool
}

func newCA(t *testing.T, name string) testCA {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: name},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour), IsCA: true,
		BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AddCert(cert)
	return testCA{cert: cert, key: key, pool: pool}
}

// issue writes a server certificate for 127.0.0.1 signed by the CA, and its key, as PEM files.
func (ca testCA) issue(t *testing.T, dir string) (certFile, keyFile string) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "weft-switch"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, KeyUsage: x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca.cert, &key.PublicKey, ca.key)
	if err != nil {
		t.Fatal(err)
	}
	kb, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	certFile, keyFile = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	if err := os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kb}), 0o600); err != nil {
		t.Fatal(err)
	}
	return certFile, keyFile
}

// Given a certificate and key the agent speaks TLS only: a client trusting the CA that signed the
// certificate gets its capabilities; a client trusting another CA, and a plaintext client, get nothing.
func TestTLSWhenCertificateGiven(t *testing.T) {
	nstest.Require(t)
	dir := t.TempDir()
	agent := build(t, dir, "weft.io/switch-agent/cmd/weft-switch", "weft-switch")
	ca := newCA(t, "weft-fabric-ca")
	certFile, keyFile := ca.issue(t, dir)
	sw := nstest.NS(t)
	addr := freePort(t)
	cmd := exec.Command(agent, "--netns", sw, "--listen", addr, "--tls-cert", certFile, "--tls-key", keyFile)
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	for start := time.Now(); ; time.Sleep(20 * time.Millisecond) {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			break
		}
		if time.Since(start) > 10*time.Second {
			t.Fatal("weft-switch did not listen within 10 s")
		}
	}
	capabilities := func(creds credentials.TransportCredentials) error {
		conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(creds))
		if err != nil {
			return err
		}
		defer conn.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		defer cancel()
		_, err = gnmi.NewGNMIClient(conn).Capabilities(ctx, &gnmi.CapabilityRequest{})
		return err
	}
	if err := capabilities(credentials.NewTLS(&tls.Config{RootCAs: ca.pool})); err != nil {
		t.Fatalf("TLS client trusting the switch's CA: %v", err)
	}
	if err := capabilities(credentials.NewTLS(&tls.Config{RootCAs: newCA(t, "another-ca").pool})); err == nil {
		t.Fatal("a client trusting another CA was answered")
	}
	if err := capabilities(insecure.NewCredentials()); err == nil {
		t.Fatal("a plaintext client was answered by a TLS agent")
	}
}
