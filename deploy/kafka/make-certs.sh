#!/bin/sh
# Makes the broker's TLS material once, with the JDK's keytool from the Kafka image: a CA, a broker key
# and certificate signed by it for the names in WEFT_KAFKA_TLS_SAN (keytool's SAN syntax, e.g.
# dns:kafka,dns:localhost). The CA's key is thrown away after signing: renewing means making both again.
# Usage: make-certs.sh <tls-dir> <ca-dir> [<secrets.yaml>]
#   <tls-dir>/broker.p12   the broker's key and chain (PKCS12, WEFT_KAFKA_KEYSTORE_PASSWORD[_FILE]): the broker only
#   <ca-dir>/ca.crt        the CA certificate (PEM) every client trusts
#   <secrets.yaml>         (Kubernetes) both as Secrets weft-kafka-tls and weft-kafka-cluster-ca-cert
# An existing broker.p12 and ca.crt are kept. Nothing secret is printed.
set -eu
here=$(dirname "$0")
# shellcheck source=deploy/kafka/secret.sh
. "$here/secret.sh"
tls_dir="$1"; ca_dir="$2"; secrets="${3:-}"
WEFT_STORE_PASS=$(secret WEFT_KAFKA_KEYSTORE_PASSWORD); export WEFT_STORE_PASS
: "${WEFT_KAFKA_TLS_SAN:?set WEFT_KAFKA_TLS_SAN, e.g. dns:kafka,dns:localhost}"
# The image's JRE (PATH has it too; JAVA_HOME first where it is set).
# Its chatter is shown only when a step fails (no password is on its command line: -storepass:env).
keytool() {
  if [ -n "${JAVA_HOME:-}" ]; then set -- "$JAVA_HOME/bin/keytool" "$@"; else set -- command keytool "$@"; fi
  keytool_out=$("$@" 2>&1) || { printf '%s\n' "$keytool_out" >&2; return 1; }
}
umask 077
if [ -s "$tls_dir/broker.p12" ] && [ -s "$ca_dir/ca.crt" ]; then
  echo "kafka certs: keeping the existing broker certificate and CA"
else
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  WEFT_CA_PASS=$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n'); export WEFT_CA_PASS
  keytool -genkeypair -alias ca -dname CN=weft-kafka-ca -ext bc:c -keyalg EC -groupname secp256r1 \
      -validity 3650 -storetype PKCS12 -keystore "$work/ca.p12" -storepass:env WEFT_CA_PASS
  keytool -exportcert -rfc -alias ca -keystore "$work/ca.p12" -storepass:env WEFT_CA_PASS -file "$work/ca.crt"
  keytool -genkeypair -alias kafka -dname CN=kafka -keyalg EC -groupname secp256r1 -validity 825 \
      -storetype PKCS12 -keystore "$work/broker.p12" -storepass:env WEFT_STORE_PASS
  keytool -certreq -alias kafka -keystore "$work/broker.p12" -storepass:env WEFT_STORE_PASS -file "$work/kafka.csr"
  keytool -gencert -alias ca -keystore "$work/ca.p12" -storepass:env WEFT_CA_PASS -infile "$work/kafka.csr" \
      -outfile "$work/kafka.crt" -rfc -validity 825 -ext "SAN=$WEFT_KAFKA_TLS_SAN" \
      -ext KU=digitalSignature -ext EKU=serverAuth
  keytool -importcert -noprompt -alias ca -file "$work/ca.crt" -keystore "$work/broker.p12" \
      -storepass:env WEFT_STORE_PASS
  keytool -importcert -alias kafka -file "$work/kafka.crt" -keystore "$work/broker.p12" \
      -storepass:env WEFT_STORE_PASS
  mkdir -p "$tls_dir" "$ca_dir"
  cp "$work/broker.p12" "$tls_dir/broker.p12"
  cp "$work/ca.crt" "$ca_dir/ca.crt"
  chmod 0755 "$ca_dir"; chmod 0644 "$ca_dir/ca.crt"
  # Compose runs this as root (a fresh named volume belongs to root): hand the key to the broker's
  # user (the Kafka image's appuser, 1000) and to nobody else.
  if [ "$(id -u)" = 0 ]; then chown -R "${WEFT_KAFKA_UID:-1000}" "$tls_dir"; fi
  echo "kafka certs: made a CA and a broker certificate for $WEFT_KAFKA_TLS_SAN"
fi
if [ -n "$secrets" ]; then
  b64() { base64 < "$1" | tr -d '\n'; }
  cat > "$secrets" <<YAML
apiVersion: v1
kind: Secret
metadata: { name: weft-kafka-tls, labels: { app.kubernetes.io/part-of: weft } }
type: Opaque
data: { broker.p12: $(b64 "$tls_dir/broker.p12") }
---
apiVersion: v1
kind: Secret
metadata: { name: weft-kafka-cluster-ca-cert, labels: { app.kubernetes.io/part-of: weft } }
type: Opaque
data: { ca.crt: $(b64 "$ca_dir/ca.crt") }
YAML
fi
