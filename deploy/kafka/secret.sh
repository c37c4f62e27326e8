# shellcheck shell=sh
# Sourced by the Kafka scripts here: secret NAME prints $NAME, or the content of the file $NAME_FILE
# (Kubernetes mounts), and refuses an unset one. Only letters, digits and ._~+/=- are allowed, because
# the value is quoted into Kafka's JAAS lines and SCRAM arguments unescaped.
secret() {
  eval "secret_value=\${$1:-}"
  eval "secret_file=\${$1_FILE:-}"
  if [ -n "$secret_file" ]; then secret_value=$(cat "$secret_file"); fi
  if [ -z "$secret_value" ]; then echo "$1 (or $1_FILE) is not set" >&2; return 2; fi
  case $secret_value in
    *[!A-Za-z0-9._~+/=-]*) echo "$1: use letters, digits and ._~+/=- only" >&2; return 2 ;;
  esac
  printf '%s' "$secret_value"
}

# The password variable of a principal of contracts/topics.json: weft-scheduler-api -> WEFT_KAFKA_SCHEDULER_API_PASSWORD.
password_variable() {
  printf 'WEFT_KAFKA_%s_PASSWORD' "$(printf '%s' "${1#weft-}" | tr 'a-z-' 'A-Z_')"
}
