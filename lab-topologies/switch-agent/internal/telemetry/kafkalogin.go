package telemetry

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/sasl/scram"
)

// The Kafka login variables every Weft process reads (weft-auth's KafkaClientSecurity on the Java
// side, with the same rules): SASL/SCRAM-SHA-512 over TLS, or plaintext when none is set.
const (
	EnvProtocol     = "WEFT_KAFKA_SECURITY_PROTOCOL"
	EnvUsername     = "WEFT_KAFKA_USERNAME"
	EnvPassword     = "WEFT_KAFKA_PASSWORD"
	EnvPasswordFile = "WEFT_KAFKA_PASSWORD_FILE"
	EnvCAFile       = "WEFT_KAFKA_CA_FILE"
)

// ErrKafkaLogin marks a login configuration that cannot be used; the message names the variable.
var ErrKafkaLogin = errors.New("kafka login")

// KafkaLogin returns the client options of the login the environment describes (getenv is
// os.Getenv outside tests): none for plaintext; SCRAM-SHA-512 and TLS (trusting WEFT_KAFKA_CA_FILE,
// else the system roots) for SASL_SSL. The password comes from WEFT_KAFKA_PASSWORD or a mounted
// WEFT_KAFKA_PASSWORD_FILE (one trailing newline dropped) and is never logged.
func KafkaLogin(getenv func(string) string) ([]kgo.Opt, error) {
	protocol, user := getenv(EnvProtocol), getenv(EnvUsername)
	password, passwordFile, caFile := getenv(EnvPassword), getenv(EnvPasswordFile), getenv(EnvCAFile)
	if protocol == "" || protocol == "PLAINTEXT" {
		if user != "" || password != "" || passwordFile != "" {
			return nil, fmt.Errorf("%w: %s/%s are set but %s is not SASL_SSL: credentials are never sent over plaintext",
				ErrKafkaLogin, EnvUsername, EnvPassword, EnvProtocol)
		}
		return nil, nil
	}
	if protocol != "SASL_SSL" {
		return nil, fmt.Errorf("%w: %s: %q is not PLAINTEXT or SASL_SSL", ErrKafkaLogin, EnvProtocol, protocol)
	}
	if user == "" {
		return nil, fmt.Errorf("%w: %s: required with %s=SASL_SSL", ErrKafkaLogin, EnvUsername, EnvProtocol)
	}
	if (password == "") == (passwordFile == "") {
		return nil, fmt.Errorf("%w: give exactly one of %s and %s with %s=SASL_SSL", ErrKafkaLogin, EnvPassword,
			EnvPasswordFile, EnvProtocol)
	}
	if passwordFile != "" {
		b, err := os.ReadFile(passwordFile)
		if err != nil {
			return nil, fmt.Errorf("%w: %s: %w", ErrKafkaLogin, EnvPasswordFile, err)
		}
		password = strings.TrimSuffix(string(b), "\n")
	}
	cfg := &tls.Config{MinVersion: tls.VersionTLS12}
	if caFile != "" {
		pem, err := os.ReadFile(caFile)
		if err != nil {
			return nil, fmt.Errorf("%w: %s: %w", ErrKafkaLogin, EnvCAFile, err)
		}
		cfg.RootCAs = x509.NewCertPool()
		if !cfg.RootCAs.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("%w: %s: no PEM certificate in %s", ErrKafkaLogin, EnvCAFile, caFile)
		}
	}
	return []kgo.Opt{
		kgo.DialTLSConfig(cfg),
		kgo.SASL(scram.Auth{User: user, Pass: password}.AsSha512Mechanism()),
	}, nil
}
