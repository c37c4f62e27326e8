#!/usr/bin/env bash
# Fuzzes the running scheduler-api from its committed OpenAPI with schemathesis (an independent,
# schema-driven client): the demo's services on a throw-away devstack, then one pass per kind of
# caller (scheduler, operator, agent, a wrong token). Fails on any server error or any answer the
# contract does not describe. Settings: contracts/openapi/schemathesis.toml.
# Usage: tools/api-fuzz.sh [--seed N] [--max-examples N]
set -euo pipefail
source "$WEFT_HOME/tools/lib.sh"

SCHEMATHESIS_VERSION=4.32.5
seed=20261125
max_examples=""
while [ $# -gt 0 ]; do
  case "$1" in
    --seed) seed="${2:?--seed needs a value}"; shift 2 ;;
    --max-examples) max_examples="${2:?--max-examples needs a value}"; shift 2 ;;
    *) die "api-fuzz: unknown option '$1' (--seed N, --max-examples N)" ;;
  esac
done

venv="$WEFT_STATE/venv-schemathesis"
if ! "$venv/bin/schemathesis" --version 2>/dev/null | grep -q "$SCHEMATHESIS_VERSION"; then
  say "installing schemathesis $SCHEMATHESIS_VERSION (PyPI, into $venv)"
  need_apt python3 python3-minimal
  if ! python3 -m venv "$venv" >/dev/null 2>&1; then
    # Debian's own python3 keeps venv in a package of its own.
    [ "$(id -u)" = 0 ] || die "python3 cannot make a venv; install: apt-get install -y python3-venv"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >/dev/null
    python3 -m venv "$venv"
  fi
  "$venv/bin/pip" install -q --disable-pip-version-check "schemathesis==$SCHEMATHESIS_VERSION"
fi

# The demo binds fixed ports: one run at a time on this machine (the browser suite takes the same lock).
if [ -z "${WEFT_PORTS_LOCKED:-}" ] && command -v flock >/dev/null 2>&1; then
  WEFT_PORTS_LOCKED=1 exec flock /tmp/weft-ports.lock bash "$0" --seed "$seed" ${max_examples:+--max-examples "$max_examples"}
fi

state="$WEFT_STATE/api-fuzz"
rm -rf "$state"
mkdir -p "$state"
api=http://127.0.0.1:8082
say "api-fuzz: starting the demo's services (state in $state)"
setsid bash "$WEFT_HOME/tools/weft.d/demo" --state-dir "$state" --no-web-ui >"$state/demo.out" 2>&1 &
demo=$!
stop_demo() {
  kill -TERM "$demo" 2>/dev/null || true
  wait "$demo" 2>/dev/null || true
}
trap stop_demo EXIT
t=0
until grep -q 'Ctrl-C to stop' "$state/demo.out" 2>/dev/null; do
  kill -0 "$demo" 2>/dev/null || { tail -20 "$state/demo.out" >&2; die "api-fuzz: the demo exited before it was ready"; }
  [ $t -ge 600 ] && { tail -20 "$state/demo.out" >&2; die "api-fuzz: the demo was not ready after 300 s"; }
  sleep 0.5; t=$((t + 1))
done

# Run from the state dir: schemathesis keeps a cache in its working directory.
cd "$state"
spec="$WEFT_HOME/contracts/openapi/scheduler-api.yaml"
config="$WEFT_HOME/contracts/openapi/schemathesis.toml"
rc=0
# Usage: pass <name> <token> [schemathesis options...]
pass() {
  local name="$1" token="$2"; shift 2
  say "api-fuzz: $name"
  "$venv/bin/schemathesis" --config-file "$config" run "$spec" --url "$api" --seed "$seed" \
    ${max_examples:+--max-examples "$max_examples"} \
    -H "Authorization: Bearer $token" --no-color "$@" >"$state/$name.log" 2>&1 || {
    rc=1
    sed -n '/= FAILURES =/,$p' "$state/$name.log" | head -150
  }
  tail -1 "$state/$name.log"
}
pass scheduler demo-scheduler-token-01
pass operator demo-operator-token-01 --include-path-regex '^/v1/fabric'
pass agent demo-agent-token-0001 --include-path-regex '^/v1/agents/'
pass wrong-token not-a-weft-token --phases examples,coverage
exit $rc
