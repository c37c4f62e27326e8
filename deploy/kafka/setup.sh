#!/bin/sh
# One-shot set-up of the compose and dev-overlay broker, as weft-admin: a SCRAM-SHA-512 login for every
# principal of contracts/topics.json whose password is given, the ACLs of acls.txt (generated from the
# same catalogue by deploy/k8s/gen-kafka-users.py, as prod's KafkaUsers are), then the topics. All steps
# are idempotent: it runs again on every `up` and so also changes a password.
# Usage: setup.sh <bootstrap> <topics.json> <acls.txt> <ca.crt>
# Environment: WEFT_KAFKA_ADMIN_PASSWORD[_FILE]; per principal, e.g. weft-scheduler-api:
# WEFT_KAFKA_SCHEDULER_API_PASSWORD[_FILE]. A principal without one gets no login (the lab's and the
# demo's publishers are not deployed).
set -eu
here=$(dirname "$0")
# shellcheck source=deploy/kafka/secret.sh
. "$here/secret.sh"
bootstrap="$1"; catalogue="$2"; acls="$3"; ca="$4"
bin="${KAFKA_HOME:-/opt/kafka}/bin"
umask 077
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
admin="$work/admin.properties"
{
  echo "security.protocol=SASL_SSL"
  echo "sasl.mechanism=SCRAM-SHA-512"
  echo "sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username=\"weft-admin\" password=\"$(secret WEFT_KAFKA_ADMIN_PASSWORD)\";"
  echo "ssl.truststore.type=PEM"
  echo "ssl.truststore.location=$ca"
} > "$admin"

tries=0
until "$bin/kafka-broker-api-versions.sh" --bootstrap-server "$bootstrap" --command-config "$admin" >/dev/null 2>&1; do
  tries=$((tries + 1))
  [ "$tries" -lt 60 ] || { echo "kafka setup: $bootstrap did not accept weft-admin's login" >&2; exit 1; }
  sleep 5
done

grep -v '^#' "$acls" | cut -d' ' -f1 | sort -u | while read -r principal; do
  var=$(password_variable "$principal")
  if eval "[ -z \"\${$var:-}\" ] && [ -z \"\${${var}_FILE:-}\" ]"; then
    echo "kafka setup: no $var: $principal gets no login"
    continue
  fi
  # The password goes through a private file, never the command line. In a file the value is taken
  # as is (--add-config would strip the [ ] of SCRAM-SHA-512=[password=...]), so no brackets.
  printf 'SCRAM-SHA-512=password=%s\n' "$(secret "$var")" > "$work/scram.properties"
  "$bin/kafka-configs.sh" --bootstrap-server "$bootstrap" --command-config "$admin" --alter \
      --entity-type users --entity-name "$principal" --add-config-file "$work/scram.properties" >/dev/null
  rm -f "$work/scram.properties"
  echo "kafka setup: login for $principal"
done

grep -v '^#' "$acls" | while read -r principal type pattern ops names; do
  set --
  for op in $(echo "$ops" | tr ',' ' '); do set -- "$@" --operation "$op"; done
  for name in $names; do set -- "$@" "--$type" "$name"; done
  "$bin/kafka-acls.sh" --bootstrap-server "$bootstrap" --command-config "$admin" --add \
      --allow-principal "User:$principal" --resource-pattern-type "$pattern" "$@" >/dev/null
  echo "kafka setup: $principal may $ops $type $pattern $names"
done

sh "$here/create-topics.sh" "$bootstrap" "$catalogue" "$admin"
