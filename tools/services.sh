# shellcheck shell=bash
# How Weft's services are started on the devstack: ./weft demo starts them all, ./weft run one of them,
# both through the functions below, so a service runs the same way in both.
#
# Callers parse their options with services_options (it sets the variables below and leaves what it
# does not know in the array `rest`), call services_prepare, then start what they need.

state_dir="$WEFT_STATE"
kafka_port=19092
postgres_port=15432
controller_port=8181
telemetry_port=8083
scheduler_port=8082
web_port=8080
fabric=""
scenario=""
kafka_secure=0

# The options every service start shares; the help texts of demo and run describe them.
# Usage: services_options "$@"   (unknown arguments are kept, in order, in `rest`)
services_options() {
  rest=()
  while [ $# -gt 0 ]; do
    case "$1" in
      --state-dir) state_dir="${2:?--state-dir needs a value}"; shift 2 ;;
      --kafka-port) kafka_port="${2:?--kafka-port needs a value}"; shift 2 ;;
      --postgres-port) postgres_port="${2:?--postgres-port needs a value}"; shift 2 ;;
      --controller-port) controller_port="${2:?--controller-port needs a value}"; shift 2 ;;
      --fabric) fabric="${2:?--fabric needs a value}"; shift 2 ;;
      --scenario) scenario="${2:?--scenario needs a value}"; shift 2 ;;
      --web-port) web_port="${2:?--web-port needs a value}"; shift 2 ;;
      --kafka-secure) kafka_secure=1; shift ;;
      *) rest+=("$1"); shift ;;
    esac
  done
}

# Makes the state directory and the file paths absolute; picks the fabric file.
services_prepare() {
  mkdir -p "$state_dir/logs"
  state_dir="$(cd "$state_dir" && pwd)"
  if [ -n "$fabric" ]; then
    [ -f "$fabric" ] || die "--fabric: no such file: $fabric"
    fabric="$(cd "$(dirname "$fabric")" && pwd)/$(basename "$fabric")"
  else
    # The demo's own editable copy: edits re-plan live, and the repository's example stays untouched.
    # Four spines, so that a flow leaving a hot or failed spine link has a free one to go to (the
    # re-placement keeps at most one elephant per link direction). An unedited copy of the former
    # 2x2 default is replaced.
    fabric="$state_dir/fabric.json"
    if [ ! -f "$fabric" ] || cmp -s "$fabric" "$WEFT_HOME/contracts/examples/leaf-spine-2x2.json"; then
      cp "$WEFT_HOME/contracts/examples/leaf-spine-2x4.json" "$fabric"
    fi
  fi
  if [ -n "$scenario" ]; then
    [ -f "$scenario" ] || die "--scenario: no such file: $scenario"
    scenario="$(cd "$(dirname "$scenario")" && pwd)/$(basename "$scenario")"
  fi
}

# ── service bookkeeping ─────────────────────────────────────────────────────────────────────────
# Every service is a background Java process started with SIGINT ignored (the JVM keeps an ignored
# SIGINT ignored), so a terminal's Ctrl-C, sent to the whole process group, reaches only the calling
# script: its trap sends SIGTERM to each service newest first, so services stop before the devstack
# they use, and waits for their shutdown hooks.
names=()
pids=()
urls=()
# Services whose output goes to the terminal as well as to their log (the demo: the live fabric,
# whose incident is what it shows; ./weft run: the one service it runs).
shown_services=" live "

# Usage: start_service <name> <module-dir> <main-class> <heap> [args...]
# stdout/stderr go to the terminal when name is "devstack", to the terminal and the log for the
# services in $shown_services, else to $state_dir/logs/<name>.log.
start_service() {
  local name="$1" mod="$2" main="$3" heap="$4"; shift 4
  build_module "$mod"
  if [ "$name" = devstack ]; then
    ( trap '' INT; WEFT_JAVA_OPTS="-Xmx$heap ${WEFT_JAVA_OPTS:-}" run_java "$mod" "$main" "$@" ) &
  elif [[ "$shown_services" == *" $name "* ]]; then
    # tee ignores Ctrl-C too, so it copies the service's last lines while the trap stops it.
    ( trap '' INT; WEFT_JAVA_OPTS="-Xmx$heap ${WEFT_JAVA_OPTS:-}" run_java "$mod" "$main" "$@" ) \
      > >(trap '' INT; exec tee "$state_dir/logs/$name.log") 2>&1 &
  else
    ( trap '' INT; WEFT_JAVA_OPTS="-Xmx$heap ${WEFT_JAVA_OPTS:-}" run_java "$mod" "$main" "$@" ) \
      >"$state_dir/logs/$name.log" 2>&1 &
  fi
  names+=("$name")
  pids+=("$!")
}

stopping=0
stop_all() {
  [ "$stopping" = 1 ] && return 0
  stopping=1
  trap '' INT   # a second Ctrl-C must not interrupt the orderly stop
  echo
  say "stopping ${names[*]:-nothing}"
  local i
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
    kill -TERM "${pids[$i]}" 2>/dev/null || true
    wait "${pids[$i]}" 2>/dev/null || true
  done
  say "all stopped"
}

# Installs the traps that stop every started service on Ctrl-C, TERM and exit.
services_trap() {
  trap 'stop_all; exit 130' INT
  trap 'stop_all; exit 143' TERM
  trap 'stop_all' EXIT
}

# The pid of the service started as <name> (the newest of that name).
pid_of() {
  local i
  for ((i = ${#names[@]} - 1; i >= 0; i--)); do
    [ "${names[$i]}" = "$1" ] && { echo "${pids[$i]}"; return 0; }
  done
  die "no service named $1 was started"
}

# Usage: await_ready <name> <timeout-s> <test command...>: waits, while the service <name> lives,
# until the test command succeeds (a readiness file appears, a log line is written).
await_ready() {
  local name="$1" timeout="$2" pid t=0; shift 2
  pid=$(pid_of "$name")
  until "$@" >/dev/null 2>&1; do
    if ! kill -0 "$pid" 2>/dev/null; then
      [ -f "$state_dir/logs/$name.log" ] && tail -5 "$state_dir/logs/$name.log" >&2
      die "$name exited before it was ready (log: $state_dir/logs/$name.log)"
    fi
    [ "$t" -ge $((timeout * 5)) ] && die "$name not ready after ${timeout}s (log: $state_dir/logs/$name.log)"
    sleep 0.2; t=$((t + 1))
  done
}

# Prints what was started, then returns when a service exits on its own or a signal arrives (trap).
services_wait() {
  echo
  local u
  for u in "${urls[@]}"; do echo "$u"; done
  echo "  logs         $state_dir/logs/"
  echo
  say "running: ${names[*]}  (state in $state_dir)"
  say "Ctrl-C to stop"
  wait -n "${pids[@]}" || true
  say "a service exited on its own; stopping the rest"
  return 1
}

# ── the services ────────────────────────────────────────────────────────────────────────────────
# Each starts one service as the demo runs it, waits until it is ready and adds its lines to urls.

# Kafka and PostgreSQL; exports the WEFT_* variables of $state_dir/devstack.env to what follows.
start_devstack() {
  rm -f "$state_dir/devstack.env"
  local secure=()
  [ "$kafka_secure" = 1 ] && secure=(--kafka-secure)
  start_service devstack devstack io.weft.devstack.DevstackMain 512m \
    --state-dir "$state_dir" --kafka-port "$kafka_port" --postgres-port "$postgres_port" "${secure[@]}"
  await_ready devstack 120 test -s "$state_dir/devstack.env"
  # shellcheck disable=SC1091
  source "$state_dir/devstack.env"
  export WEFT_KAFKA_BOOTSTRAP WEFT_JDBC_URL WEFT_JDBC_USER WEFT_JDBC_PASSWORD \
    WEFT_SCHEDULER_JDBC_USER WEFT_SCHEDULER_JDBC_PASSWORD WEFT_COLLECTOR_JDBC_USER WEFT_COLLECTOR_JDBC_PASSWORD \
    WEFT_KAFKA_SECURITY_PROTOCOL WEFT_KAFKA_CA_FILE WEFT_KAFKA_CREDENTIALS_DIR
}

# Uses the devstack of a running ./weft demo (or ./weft run) of this state directory when its Kafka
# answers, else starts one.
use_or_start_devstack() {
  if [ -s "$state_dir/devstack.env" ] && (
       # shellcheck disable=SC1091
       source "$state_dir/devstack.env"
       exec 3<>"/dev/tcp/${WEFT_KAFKA_BOOTSTRAP%:*}/${WEFT_KAFKA_BOOTSTRAP##*:}") 2>/dev/null; then
    # shellcheck disable=SC1091
    source "$state_dir/devstack.env"
    export WEFT_KAFKA_BOOTSTRAP WEFT_JDBC_URL WEFT_JDBC_USER WEFT_JDBC_PASSWORD \
    WEFT_SCHEDULER_JDBC_USER WEFT_SCHEDULER_JDBC_PASSWORD WEFT_COLLECTOR_JDBC_USER WEFT_COLLECTOR_JDBC_PASSWORD \
    WEFT_KAFKA_SECURITY_PROTOCOL WEFT_KAFKA_CA_FILE WEFT_KAFKA_CREDENTIALS_DIR
    say "using the running devstack: Kafka $WEFT_KAFKA_BOOTSTRAP, PostgreSQL $WEFT_JDBC_URL"
  else
    start_devstack
  fi
}

# Usage: kafka_login <principal> <command...>: runs the command with the principal's Kafka login
# (contracts/topics.json) when the devstack's Kafka is the secure one (--kafka-secure), else as it is.
kafka_login() {
  local principal="$1"; shift
  if [ "${WEFT_KAFKA_SECURITY_PROTOCOL:-}" = SASL_SSL ]; then
    WEFT_KAFKA_USERNAME="$principal" WEFT_KAFKA_PASSWORD_FILE="$WEFT_KAFKA_CREDENTIALS_DIR/$principal" "$@"
  else
    "$@"
  fi
}

# Demo tokens only, the same for every service (contracts/auth.md): real deployments pass WEFT_TOKENS or
# WEFT_TOKENS_FILE. The agent token may read every NIC of the fabric (the live fabric plays all their agents);
# scheduler-api forwards drains to the controller with its own operator token. Reads are open: loopback only.
demo_tokens() {
  local nic_list=nic1,nic2,nic3,nic4
  if command -v python3 >/dev/null 2>&1; then
    nic_list=$(python3 -c 'import json,sys; print(",".join(n["id"] for n in json.load(open(sys.argv[1]))["nodes"] if n["role"] == "nic"))' "$fabric") \
      || nic_list=nic1,nic2,nic3,nic4
  fi
  export WEFT_TOKENS="${WEFT_TOKENS:-demo-scheduler:scheduler=demo-scheduler-token-01;demo-operator:operator=demo-operator-token-01;demo-agent:agent:$nic_list=demo-agent-token-0001;scheduler-api:operator=demo-scheduler-api-to-controller-01}"
  export WEFT_CONTROLLER_URL="${WEFT_CONTROLLER_URL:-http://127.0.0.1:$controller_port}"
  export WEFT_CONTROLLER_TOKEN="${WEFT_CONTROLLER_TOKEN:-demo-scheduler-api-to-controller-01}"
  export WEFT_COLLECTOR_READS="${WEFT_COLLECTOR_READS:-open}"
}

# start_<service> starts one service and waits until it is ready; ./weft demo starts several at once
# with launch_<service> and then waits for each with ready_<service> (they start in parallel).
start_controller() { launch_controller; ready_controller; }
launch_controller() {
  demo_tokens
  kafka_login weft-controller start_service controller controller-app/standalone \
    io.weft.controller.standalone.StandaloneController 512m \
    --fabric "$fabric" --kafka "$WEFT_KAFKA_BOOTSTRAP" --http-port "$controller_port" --state-dir "$state_dir" \
    --reads open
}
ready_controller() {
  await_ready controller 120 grep -q '^controller: serving' "$state_dir/logs/controller.log"
  urls+=("  controller   http://127.0.0.1:$controller_port/fabric  /healthz   (edit $fabric to re-plan; reads open)"
        "               drain a link (the controller owns link states; an operator token):"
        "               curl -X PUT -H 'Authorization: Bearer demo-operator-token-01' -d '{\"state\":\"drained\"}' http://127.0.0.1:$controller_port/links/<link-id>/state")
}

start_telemetry() { launch_telemetry; ready_telemetry; }
launch_telemetry() {
  demo_tokens
  # On its own PostgreSQL role (owner of schema telemetry only); an env file of an older devstack has none.
  WEFT_JDBC_USER="${WEFT_COLLECTOR_JDBC_USER:-$WEFT_JDBC_USER}" \
  WEFT_JDBC_PASSWORD="${WEFT_COLLECTOR_JDBC_PASSWORD:-$WEFT_JDBC_PASSWORD}" \
  kafka_login weft-telemetry-collector start_service telemetry telemetry-collector \
    io.weft.telemetry.TelemetryCollectorApplication 512m \
    --server.port="$telemetry_port" --weft.telemetry.kafka.state-dir="$state_dir/telemetry-streams"
}
ready_telemetry() {
  await_ready telemetry 120 grep -q 'telemetry-collector: serving on' "$state_dir/logs/telemetry.log"
  urls+=("  telemetry    http://127.0.0.1:$telemetry_port/v1/hotspots  /v1/links/<link-id>/series  /v1/flows?nic=<nic>  /v1/status  (reads open)")
}

# Ready once it places on a snapshot: the controller (of the demo, or of another run) must publish one.
start_scheduler() { launch_scheduler; ready_scheduler; }
launch_scheduler() {
  demo_tokens
  export WEFT_SCHEDULER_PORT="$scheduler_port"
  # On its own PostgreSQL role (owner of schema scheduler only).
  WEFT_JDBC_USER="${WEFT_SCHEDULER_JDBC_USER:-$WEFT_JDBC_USER}" \
  WEFT_JDBC_PASSWORD="${WEFT_SCHEDULER_JDBC_PASSWORD:-$WEFT_JDBC_PASSWORD}" \
  kafka_login weft-scheduler-api start_service scheduler scheduler-api io.weft.scheduler.SchedulerApiApplication 640m
}
ready_scheduler() {
  await_ready scheduler 180 grep -q 'placing on snapshot' "$state_dir/logs/scheduler.log"
  urls+=("  scheduler    http://127.0.0.1:$scheduler_port/v1/jobs  /v1/fabric  /v1/events  /v3/api-docs  /actuator/prometheus")
  urls+=("               drain a link: curl -X POST -H 'Authorization: Bearer demo-operator-token-01' http://127.0.0.1:$scheduler_port/v1/fabric/links/<link-id>/drain"
        "               (forwarded to the controller; the answer names the flows that moved)")
  urls+=("  tokens       (every service) scheduler demo-scheduler-token-01, operator demo-operator-token-01,"
        "               agent (every NIC) demo-agent-token-0001; scheduler-api -> controller demo-scheduler-api-to-controller-01")
}

# The simulator as the live fabric; it needs the scheduler-api on $scheduler_port (its incident waits
# until that places on a snapshot, so ./weft demo starts it with the other services).
start_live() { launch_live; ready_live; }
launch_live() {
  local live_args=(--kafka "$WEFT_KAFKA_BOOTSTRAP" --scheduler "http://127.0.0.1:$scheduler_port"
                   --agent-token demo-agent-token-0001 --scheduler-token demo-scheduler-token-01)
  [ -n "$scenario" ] && live_args+=(--scenario "$scenario")
  kafka_login weft-live-fabric start_service live simulator io.weft.simulator.live.LiveMain 384m "${live_args[@]}"
}
ready_live() {
  await_ready live 360 grep -q '^live: fabric ' "$state_dir/logs/live.log"
  urls+=("  live         the simulated fabric: every switch's counters, every NIC's agent; the incident prints below")
}

# The dashboard: vite preview serves web-ui/dist (built when stale) and proxies the API paths to
# this run's controller, scheduler-api and collector ports (vite.config.ts).
start_web_ui() { launch_web_ui; ready_web_ui; }
launch_web_ui() {
  build_web_ui
  ( trap '' INT; cd "$WEFT_HOME/web-ui" \
      && WEFT_API="http://127.0.0.1:$controller_port" WEFT_SCHEDULER_API="http://127.0.0.1:$scheduler_port" \
         WEFT_COLLECTOR="http://127.0.0.1:$telemetry_port" \
         exec node node_modules/vite/bin/vite.js preview --port "$web_port" --strictPort ) \
    >"$state_dir/logs/web-ui.log" 2>&1 &
  names+=(web-ui)
  pids+=("$!")
}
ready_web_ui() {
  await_ready web-ui 60 curl -sf -o /dev/null "http://127.0.0.1:$web_port/"
  urls+=("  dashboard    http://127.0.0.1:$web_port/   (asks once for the operator token: demo-operator-token-01)")
}
