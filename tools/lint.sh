#!/usr/bin/env bash
# Linters that fail on findings: shellcheck over every shell script of the tree (.shellcheckrc says
# what is off and why), gofmt over every Go module (go vet runs in the go suite), and ESLint
# (typescript-eslint strict, type-aware) + Prettier over the web-ui (web-ui/eslint.config.js). With
# --self-test, first proves each linter fails on a planted violation, so a linter that silently
# checks nothing cannot pass.
set -euo pipefail
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

lint_go() {
  local m rc=0 bad
  for m in $(cd "$WEFT_HOME" && git ls-files -- '*/go.mod' | xargs -r -n1 dirname); do
    bad=$(cd "$WEFT_HOME/$m" && gofmt -l .)
    if [ -n "$bad" ]; then echo "gofmt: not formatted in $m:"; echo "$bad"; rc=1; fi
  done
  return $rc
}

web_deps() { (cd "$WEFT_HOME/web-ui" && npm install --no-audit --no-fund --loglevel=error); }
lint_web() { (cd "$WEFT_HOME/web-ui" && npm run --silent lint); }

web_deps
if [ "${1:-}" = --self-test ]; then
  scratch=$(mktemp -d); trap 'rm -rf "$scratch"' EXIT
  # shellcheck disable=SC2016  # the planted script must hold an unquoted expansion, unexpanded here
  printf '#!/usr/bin/env bash\necho $undefined_var_with spaces\n' >"$scratch/planted.sh"
  if shellcheck "$scratch/planted.sh" >/dev/null 2>&1; then die "lint self-test: shellcheck passed a planted violation"; fi
  printf 'package p\nfunc  F( ) {}\n' >"$scratch/planted.go"
  [ -n "$(gofmt -l "$scratch/planted.go")" ] || die "lint self-test: gofmt passed a planted violation"
  # The planted file must sit inside web-ui/src: the type-aware rules only lint the project's files.
  planted="$WEFT_HOME/web-ui/src/lint-self-test-planted.ts"
  trap 'rm -rf "$scratch" "$planted"' EXIT
  printf 'export const x: any = JSON.parse("1");\n' >"$planted"
  if (cd "$WEFT_HOME/web-ui" && npx eslint src/lint-self-test-planted.ts >/dev/null 2>&1); then
    die "lint self-test: eslint passed a planted violation"
  fi
  printf 'export const y = {a:1}\n' >"$planted"
  if (cd "$WEFT_HOME/web-ui" && npx prettier --check src/lint-self-test-planted.ts >/dev/null 2>&1); then
    die "lint self-test: prettier passed a planted violation"
  fi
  rm -f "$planted"
  say "lint self-test: shellcheck, gofmt, eslint and prettier fail on planted violations"
fi

rc=0
if lint_shell; then say "shellcheck: $(shell_files | wc -l) scripts clean"; else rc=1; fi
if lint_go; then say "gofmt: every Go module formatted"; else rc=1; fi
if lint_web; then say "eslint + prettier: web-ui clean"; else rc=1; fi
exit $rc
