#!/usr/bin/env bash
# The dashboard in Debian's chromium against the demo's real stack: the demo's services on a
# throw-away devstack with the live fabric and its scripted incident, the dashboard served by the
# demo, then web-ui/browser/dashboard.e2e.mjs (playwright-core) drives it. The demo binds fixed
# ports, so the whole run holds /tmp/weft-ports.lock. Screenshots and report.json go to
# $WEFT_STATE/browser-test/out (or --out DIR).
# Usage: tools/browser-test.sh [--out DIR]
set -euo pipefail
source "$WEFT_HOME/tools/lib.sh"

state="$WEFT_STATE/browser-test"
out="$state/out"
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out="${2:?--out needs a value}"; shift 2 ;;
    *) die "browser-test: unknown option '$1' (--out DIR)" ;;
  esac
done

# Missing chromium is installed (root) or fails the suite; it never skips.
need_chromium
[ -x /usr/bin/chromium ] || die "browser-test: /usr/bin/chromium is missing (apt-get install -y chromium)"
build_web_ui
need_apt flock util-linux

if [ -z "${WEFT_PORTS_LOCKED:-}" ]; then
  say "browser-test: waiting for /tmp/weft-ports.lock (the demo's fixed ports)"
  WEFT_PORTS_LOCKED=1 exec flock /tmp/weft-ports.lock bash "$0" --out "$out"
fi

# A run that does not take the lock (an older checkout's api suite, say) may still hold the ports:
# wait for them rather than fail on a busy machine.
ports_busy() {
  local p
  for p in 19092 15432 8181 8083 8082 8080; do
    (: </dev/tcp/127.0.0.1/$p) 2>/dev/null && return 0
  done
  return 1
}
t=0
while ports_busy; do
  [ $t -eq 0 ] && say "browser-test: the demo's ports are in use; waiting up to 15 min for them"
  [ $t -ge 900 ] && die "browser-test: the demo's ports (19092 15432 8181 8083 8082 8080) stayed in use for 15 min"
  sleep 5; t=$((t + 5))
done

rm -rf "$state"
mkdir -p "$state" "$out"
say "browser-test: starting the demo (state in $state)"
setsid bash "$WEFT_HOME/tools/weft.d/demo" --state-dir "$state" >"$state/demo.out" 2>&1 &
demo=$!
stop_demo() {
  kill -TERM "$demo" 2>/dev/null || true
  wait "$demo" 2>/dev/null || true
}
trap stop_demo EXIT
t=0
until grep -q 'Ctrl-C to stop' "$state/demo.out" 2>/dev/null; do
  kill -0 "$demo" 2>/dev/null || { tail -20 "$state/demo.out" >&2; die "browser-test: the demo exited before it was ready"; }
  [ $t -ge 1200 ] && { tail -20 "$state/demo.out" >&2; die "browser-test: the demo was not ready after 600 s"; }
  sleep 0.5; t=$((t + 1))
done
url=$(sed -n 's/^  dashboard *\(http[^ ]*\).*/\1/p' "$state/demo.out" | head -1)
[ -n "$url" ] || die "browser-test: the demo printed no dashboard URL"
say "browser-test: $url"
rc=0
(cd "$WEFT_HOME/web-ui" && node browser/dashboard.e2e.mjs --url "$url" --out "$out" --demo-log "$state/demo.out") || rc=$?
say "browser-test: screenshots and report.json in $out"
[ $rc -eq 0 ] || tail -30 "$state/demo.out" >&2
exit $rc
