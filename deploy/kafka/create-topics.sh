#!/bin/sh
# Creates every topic of the catalogue (contracts/topics.json) that does not exist yet.
# Usage: create-topics.sh <bootstrap> <topics.json> [<client.properties>]   (runs in the apache/kafka
# image: no jq, so sed; setup.sh passes weft-admin's login)
set -eu
bootstrap="$1"; catalogue="$2"; client="${3:-}"
set -- --bootstrap-server "$bootstrap"
if [ -n "$client" ]; then set -- "$@" --command-config "$client"; fi
kt="${KAFKA_HOME:-/opt/kafka}/bin/kafka-topics.sh"
# One topic object per line: flatten the JSON, then split on the "name" keys.
tr -d '\n' < "$catalogue" | sed 's/{ *"name"/\n{"name"/g' | grep '^{"name"' | while read -r t; do
  name=$(echo "$t" | sed -n 's/^{"name" *: *"\([^"]*\)".*/\1/p')
  parts=$(echo "$t" | sed -n 's/.*"partitions" *: *\([0-9]*\).*/\1/p')
  configs=$(echo "$t" | sed -n 's/.*"config" *: *{\([^}]*\)}.*/\1/p' \
            | tr ',' '\n' | sed -n 's/ *"\([^"]*\)" *: *"\{0,1\}\([^"]*\)"\{0,1\} */--config \1=\2/p' | tr '\n' ' ')
  # shellcheck disable=SC2086
  $kt "$@" --create --if-not-exists --topic "$name" \
      --partitions "${parts:-1}" --replication-factor 1 $configs
done
