# shellcheck shell=bash
# Shared helpers for ./weft subcommands: install what is missing, build what is stale, run Java.
# Sourced, never executed. Everything here is idempotent: a second call costs a few stat()s.

WEFT_HOME="${WEFT_HOME:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"
WEFT_STATE="${WEFT_STATE:-$WEFT_HOME/.weft}"

say() { printf '\033[1mweft:\033[0m %s\n' "$*" >&2; }
die() { printf 'weft: %s\n' "$*" >&2; exit 2; }

# apt packages, installed only when a probe command is missing. Usage: need_apt <command> <package>...
need_apt() {
  local probe="$1"; shift
  command -v "$probe" >/dev/null 2>&1 && return 0
  [ "$(id -u)" = 0 ] || die "'$probe' is missing; install: apt-get install -y $*"
  say "installing $* (apt)"
  if [ ! -f "$WEFT_STATE/.apt-updated" ]; then
    apt-get update -qq >/dev/null && mkdir -p "$WEFT_STATE" && touch "$WEFT_STATE/.apt-updated"
  fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

need_java() {
  command -v java >/dev/null 2>&1 || need_apt java openjdk-17-jdk-headless
  local v
  v=$(java -XshowSettings:properties -version 2>&1 | sed -n 's/ *java.specification.version = //p')
  [ "${v%%.*}" -ge 17 ] 2>/dev/null || die "Java 17 or newer is needed (found '$v')"
}

need_node() { need_apt node nodejs npm; }

# What the network-namespace lab needs (FACTS.md §1, §7): a fresh Debian machine has none of nft,
# ping or iperf3. Installed only as root; without root the lab tests say why they cannot run.
need_lab_tools() {
  [ "$(id -u)" = 0 ] || return 0
  need_apt ip iproute2
  need_apt nft nftables
  need_apt ping iputils-ping
  need_apt iperf3 iperf3
  need_apt tcpdump tcpdump
  need_apt python3 python3-minimal
}
# Debian's chromium, for the browser tests and `./weft bench ui` (FACTS.md §5): never a
# downloaded browser.
need_chromium() { need_apt chromium chromium; }

# web-ui's packages from the committed lock, installed again only when the lock is newer than
# what npm last installed (`npm ci` fails on platform-optional rollup packages).
web_ui_deps() {
  local ui="$WEFT_HOME/web-ui"
  need_node
  if [ ! -f "$ui/node_modules/.package-lock.json" ] || [ "$ui/package-lock.json" -nt "$ui/node_modules/.package-lock.json" ]; then
    say "installing web-ui packages (npm)"
    (cd "$ui" && npm install --no-audit --no-fund --loglevel=error) >&2
  fi
}

# Builds web-ui/dist when a source, the config or the lock is newer than its index.html.
build_web_ui() {
  local ui="$WEFT_HOME/web-ui"
  web_ui_deps
  # src/bench is the UI benchmark's page only (./weft bench ui builds it apart).
  if [ -f "$ui/dist/index.html" ] && [ -z "$(find "$ui/src" "$ui/index.html" "$ui/vite.config.ts" "$ui/package-lock.json" \
        "$ui/tsconfig.json" -path "$ui/src/bench" -prune -o -newer "$ui/dist/index.html" -type f -print -quit 2>/dev/null)" ]; then
    return 0
  fi
  say "building web-ui"
  (cd "$ui" && npm run --silent build) >&2
}

need_go() { command -v go >/dev/null 2>&1 || need_apt go golang-go; }

# The lab's gNMI switch agent and telemetry subscriber, rebuilt when a source is newer. Static
# (CGO_ENABLED=0): the same binary runs in a namespace of this host and in a containerlab node.
# Prints the directory holding weft-switch and weft-telemetry.
build_switch_agent() {
  local mod="$WEFT_HOME/lab-topologies/switch-agent" bin
  bin="$mod/bin"
  if [ ! -x "$bin/weft-switch" ] || [ ! -x "$bin/weft-telemetry" ] || [ -n "$(find "$mod" -path "$bin" -prune \
        -o -newer "$bin/weft-switch" -type f \( -name '*.go' -o -name 'go.mod' -o -name 'go.sum' \) -print -quit)" ]; then
    need_go
    say "building switch-agent"
    (cd "$mod" && CGO_ENABLED=0 go build -trimpath -o bin/ ./cmd/weft-switch ./cmd/weft-telemetry) >&2
  fi
  echo "$bin"
}

mvnw() { need_java; (cd "$WEFT_HOME" && ./mvnw -B -q "$@"); }

# The main jar of a built module (not its -tests jar); fails when there is none.
# Usage: module_jar <module-dir>
module_jar() {
  local j
  for j in "$1"/target/*.jar; do
    case "$j" in *-tests.jar) ;; *) [ -f "$j" ] && { printf '%s\n' "$j"; return 0; } ;; esac
  done
  return 1
}

# JVM options into the array JAVA_OPTS: $WEFT_JAVA_OPTS when set (split on spaces: JVM options
# hold none), else the defaults given. Usage: java_opts [default option...]
# shellcheck disable=SC2120  # the subcommands in tools/weft.d pass their defaults
java_opts() {
  if [ -n "${WEFT_JAVA_OPTS:-}" ]; then
    read -r -a JAVA_OPTS <<<"$WEFT_JAVA_OPTS"
  else
    JAVA_OPTS=("$@")
  fi
}

# Builds a Maven module (and what it needs) when any source under it is newer than its jar.
# Usage: build_module <module-dir>
build_module() {
  local mod="$1" jar stamp
  jar=$(module_jar "$WEFT_HOME/$mod" || true)
  if [ -n "$jar" ] && [ -d "$WEFT_HOME/$mod/target/lib" ]; then
    # The module, and what several modules build on: the core, the placement engine, the contracts,
    # the southbound client and the fabric generators (the netns lab needs both).
    stamp=$(find "$WEFT_HOME/$mod" "$WEFT_HOME/controller-app/fabric-plan/src" "$WEFT_HOME/scheduler-api/placement-engine/src" \
              "$WEFT_HOME/contracts" \
              "$WEFT_HOME/controller-app/southbound/src" "$WEFT_HOME/lab-topologies/src" -path '*/target' -prune \
              -o -newer "$jar" -type f \( -name '*.java' -o -name 'pom.xml' -o -name '*.json' -o -name '*.yml' \
              -o -name '*.sql' -o -name '*.properties' \) -print -quit 2>/dev/null)
    [ -z "$stamp" ] && return 0
  fi
  say "building $mod"
  # copy-dependencies never deletes: a replaced jar (Tomcat -> Jetty, say) would stay and win.
  rm -rf "$WEFT_HOME/$mod/target/lib" "$WEFT_HOME/$mod/target/bench-lib"
  mvnw -pl "$mod" -am install -DskipTests >&2
  # Maven leaves an up-to-date jar untouched; touch it so the staleness check above settles.
  touch "$WEFT_HOME/$mod"/target/*.jar 2>/dev/null || true
}

# Runs a main class of a module with its runtime classpath (target/lib, filled at package time).
# Usage: run_java <module-dir> <main-class> [args...]
run_java() {
  local mod="$1" main="$2"; shift 2
  build_module "$mod"
  local jar
  jar=$(module_jar "$WEFT_HOME/$mod")
  # shellcheck disable=SC2119  # no defaults: the JVM's own
  java_opts
  exec java "${JAVA_OPTS[@]}" -cp "$jar:$WEFT_HOME/$mod/target/lib/*" "$main" "$@"
}
