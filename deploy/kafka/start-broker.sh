#!/bin/sh
# The Kafka container's entrypoint in compose and the dev overlay: broker.properties plus this start's
# secrets in a private file, the storage formatted once with the weft-admin SCRAM user (the broker's own
# login between listeners, and setup.sh's), then Kafka in the foreground.
# Environment: WEFT_KAFKA_ADVERTISED_HOST (the name clients reach, in the certificate),
# WEFT_KAFKA_ADMIN_PASSWORD[_FILE], WEFT_KAFKA_KEYSTORE_PASSWORD[_FILE], WEFT_KAFKA_TLS_DIR (broker.p12),
# WEFT_KAFKA_CA_FILE (ca.crt). weft-admin's password is stored at the first format; changing it later
# needs kafka-configs (as for any user).
set -eu
here=$(dirname "$0")
# shellcheck source=deploy/kafka/secret.sh
. "$here/secret.sh"
: "${WEFT_KAFKA_ADVERTISED_HOST:?set WEFT_KAFKA_ADVERTISED_HOST}"
admin_pass=$(secret WEFT_KAFKA_ADMIN_PASSWORD)
store_pass=$(secret WEFT_KAFKA_KEYSTORE_PASSWORD)
controller_pass=$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')
run=/tmp/weft-kafka
umask 077
mkdir -p "$run"
conf="$run/server.properties"
scram="org.apache.kafka.common.security.scram.ScramLoginModule required"
plain="org.apache.kafka.common.security.plain.PlainLoginModule required"
{
  cat "$here/broker.properties"
  echo "advertised.listeners=SASL_SSL://$WEFT_KAFKA_ADVERTISED_HOST:9093"
  echo "listener.name.sasl_ssl.scram-sha-512.sasl.jaas.config=$scram username=\"weft-admin\" password=\"$admin_pass\";"
  echo "listener.name.controller.plain.sasl.jaas.config=$plain username=\"weft-admin\" password=\"$controller_pass\" user_weft-admin=\"$controller_pass\";"
  echo "ssl.keystore.location=${WEFT_KAFKA_TLS_DIR:-/etc/kafka/secrets}/broker.p12"
  echo "ssl.keystore.password=$store_pass"
  echo "ssl.truststore.location=${WEFT_KAFKA_CA_FILE:-/etc/weft/kafka-ca/ca.crt}"
} > "$conf"
# The admin's client settings, for the healthcheck (kafka-broker-api-versions.sh --command-config).
{
  echo "security.protocol=SASL_SSL"
  echo "sasl.mechanism=SCRAM-SHA-512"
  echo "sasl.jaas.config=$scram username=\"weft-admin\" password=\"$admin_pass\";"
  echo "ssl.truststore.type=PEM"
  echo "ssl.truststore.location=${WEFT_KAFKA_CA_FILE:-/etc/weft/kafka-ca/ca.crt}"
} > "$run/admin.properties"
bin="${KAFKA_HOME:-/opt/kafka}/bin"
# Formatted once: a formatted store keeps its cluster id, which format would refuse to change
# (--ignore-formatted does not help against a new random id).
data=$(sed -n 's/^log.dirs=//p' "$conf")
if [ ! -f "$data/meta.properties" ]; then
  "$bin/kafka-storage.sh" format -c "$conf" -t "$("$bin/kafka-storage.sh" random-uuid)" \
      --add-scram "SCRAM-SHA-512=[name=weft-admin,password=$admin_pass]"
fi
exec "$bin/kafka-server-start.sh" "$conf"
