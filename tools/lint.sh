#!/usr/bin/env bash
# Linters that fail on findings: shellcheck over every shell script of the tree (.shellcheckrc says
# what is off and why), checkstyle over every Java module (tools/checkstyle.xml), golangci-lint with
# gofmt/goimports over every Go module (.golangci.yml), and ESLint (typescript-eslint strict,
# type-aware) + Prettier over the web-ui (web-ui/eslint.config.js). With --self-test, first proves
# each linter fails on a planted violation, so a linter that silently checks nothing cannot pass.
# --only java|go|shell|web runs one linter alone.
set -euo pipefail
WEFT_HOME="${WEFT_HOME:-$(cd "$(dirname "$0")/.." && pwd)}"
source "$WEFT_HOME/tools/lib.sh"
need_apt shellcheck shellcheck
need_go
need_node

shell_files() {
  (cd "$WEFT_HOME" && { echo weft; echo .ci/run; git ls-files -- 'tools/*' 'deploy/*.sh' 'deploy/**/*.sh' '*.sh'; } \
    | sort -u | while read -r f; do
        [ -f "$f" ] || continue
        case "$f" in *.sh|weft|.ci/run|tools/weft.d/*) echo "$f" ;; esac
      done)
}

lint_shell() { (cd "$WEFT_HOME" && shell_files | xargs shellcheck -x); }

# Checkstyle over the whole reactor in one Maven run. --fail-never lets every module report (a
# failing parent would otherwise skip all its children); the output decides. controller-app is
# left out of the reactor because its ONOS parent's checkstyle plugin needs an artifact no registry
# here has: the root project checks its sources instead (see the root pom).
lint_java() {
  local out
  out=$(mvnw --fail-never -Dstyle.color=never -pl '!controller-app' checkstyle:check 2>&1) || true
  if grep -q '^\[ERROR\]' <<<"$out"; then
    # The findings and the module each was in; anything else (a plugin that did not resolve) whole.
    grep '^\[ERROR\] .*\.java\|Checkstyle violation' <<<"$out" || printf '%s\n' "$out"
    return 1
  fi
}

# golangci-lint, built once per version from the Go module proxy into .weft/tools (a few minutes
# cold). The version is pinned here; .golangci.yml says what it checks.
GOLANGCI_LINT_VERSION=v2.15.0
GOLANGCI_LINT="$WEFT_STATE/tools/golangci-lint-$GOLANGCI_LINT_VERSION/golangci-lint"
need_golangci_lint() {
  [ -x "$GOLANGCI_LINT" ] && return 0
  say "building golangci-lint $GOLANGCI_LINT_VERSION (go install)"
  GOBIN="$(dirname "$GOLANGCI_LINT")" GOFLAGS='' \
    go install "github.com/golangci/golangci-lint/v2/cmd/golangci-lint@$GOLANGCI_LINT_VERSION" >&2
}
golangci() { "$GOLANGCI_LINT" run --config "$WEFT_HOME/.golangci.yml" --color never "$@"; }

lint_go() {
  local m rc=0
  for m in $(cd "$WEFT_HOME" && git ls-files -- '*/go.mod' | xargs -r -n1 dirname); do
    (cd "$WEFT_HOME/$m" && golangci ./...) || { echo "golangci-lint: findings in $m"; rc=1; }
  done
  return $rc
}

web_deps() { (cd "$WEFT_HOME/web-ui" && npm install --no-audit --no-fund --loglevel=error); }
lint_web() { (cd "$WEFT_HOME/web-ui" && npm run --silent lint); }

# One linter alone, without the self-test (a quick re-check after a merge).
if [ "${1:-}" = --only ]; then
  case "${2:-}" in
    java) lint_java && say "checkstyle: every Java module clean" ;;
    go) need_golangci_lint && lint_go && say "golangci-lint: every Go module clean" ;;
    shell) lint_shell && say "shellcheck: clean" ;;
    web) web_deps && lint_web ;;
    *) die "usage: tools/lint.sh [--self-test | --only java|go|shell|web]" ;;
  esac
  exit
fi

web_deps
need_golangci_lint
if [ "${1:-}" = --self-test ]; then
  scratch=$(mktemp -d); trap 'rm -rf "$scratch"' EXIT
  # shellcheck disable=SC2016  # the planted script must hold an unquoted expansion, unexpanded here
  printf '#!/usr/bin/env bash\necho $undefined_var_with spaces\n' >"$scratch/planted.sh"
  if shellcheck "$scratch/planted.sh" >/dev/null 2>&1; then die "lint self-test: shellcheck passed a planted violation"; fi
  # A module of its own: an unchecked error (errcheck) and, on another line (one finding a line is
  # shown), a layout gofmt would rewrite.
  mkdir "$scratch/gomod"
  printf 'module planted\n\ngo 1.22\n' >"$scratch/gomod/go.mod"
  printf 'package planted\n\nimport "os"\n\nfunc  F( ) {}\n\nfunc G() { os.Chdir("/") }\n' >"$scratch/gomod/planted.go"
  out=$(cd "$scratch/gomod" && golangci ./... 2>&1) && die "lint self-test: golangci-lint passed a planted violation"
  grep -q '(errcheck)' <<<"$out" || die "lint self-test: golangci-lint missed an unchecked error: $out"
  grep -q '(gofmt)' <<<"$out" || die "lint self-test: golangci-lint missed a gofmt violation: $out"
  # Planted Java files sit in real modules, read by the real configuration: one in an ordinary
  # module, one in the ONOS app (checked from the root project, see lint_java).
  planted_java="$WEFT_HOME/contracts/src/test/java/io/weft/contracts/LintSelfTestPlanted.java"
  planted_onos="$WEFT_HOME/controller-app/src/main/java/io/weft/controller/onos/LintSelfTestPlanted.java"
  trap 'rm -rf "$scratch" "$planted_java" "$planted_onos"' EXIT
  printf 'package io.weft.contracts;\n\nimport java.util.List;\n\nclass LintSelfTestPlanted {\n    String s = "%0110d";\n}\n' 0 \
    >"$planted_java"
  printf 'package io.weft.controller.onos;\n\nimport java.util.*;\n\nclass LintSelfTestPlanted {\n}\n' >"$planted_onos"
  out=$(mvnw --fail-never -Dstyle.color=never -pl .,contracts checkstyle:check 2>&1) || true
  grep -q 'contracts/LintSelfTestPlanted.java.*UnusedImports' <<<"$out" || die "lint self-test: checkstyle missed an unused import: $out"
  grep -q 'contracts/LintSelfTestPlanted.java.*LineLength' <<<"$out" || die "lint self-test: checkstyle missed a long line: $out"
  grep -q 'onos/LintSelfTestPlanted.java.*AvoidStarImport' <<<"$out" || die "lint self-test: checkstyle skipped the ONOS app: $out"
  rm -f "$planted_java" "$planted_onos"
  # The planted file must sit inside web-ui/src: the type-aware rules only lint the project's files.
  planted="$WEFT_HOME/web-ui/src/lint-self-test-planted.ts"
  trap 'rm -rf "$scratch" "$planted" "$planted_java" "$planted_onos"' EXIT
  printf 'export const x: any = JSON.parse("1");\n' >"$planted"
  if (cd "$WEFT_HOME/web-ui" && npx eslint src/lint-self-test-planted.ts >/dev/null 2>&1); then
    die "lint self-test: eslint passed a planted violation"
  fi
  printf 'export const y = {a:1}\n' >"$planted"
  if (cd "$WEFT_HOME/web-ui" && npx prettier --check src/lint-self-test-planted.ts >/dev/null 2>&1); then
    die "lint self-test: prettier passed a planted violation"
  fi
  rm -f "$planted"
  say "lint self-test: shellcheck, golangci-lint, checkstyle, eslint and prettier fail on planted violations"
fi

rc=0
if lint_shell; then say "shellcheck: $(shell_files | wc -l) scripts clean"; else rc=1; fi
if lint_java; then say "checkstyle: every Java module clean"; else rc=1; fi
if lint_go; then say "golangci-lint: every Go module clean"; else rc=1; fi
if lint_web; then say "eslint + prettier: web-ui clean"; else rc=1; fi
exit $rc
