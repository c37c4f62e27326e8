#!/bin/sh
# Creates Weft's per-service PostgreSQL roles (roles.sql) and sets their passwords from mounted files
# or the environment, never from arguments (they would show in ps). Usable as a
# /docker-entrypoint-initdb.d script of the postgres image and as a Kubernetes Job.
#   WEFT_SCHEDULER_DB_PASSWORD(_FILE)  password of weft_scheduler
#   WEFT_COLLECTOR_DB_PASSWORD(_FILE)  password of weft_collector
#   PGHOST/PGUSER/PGPASSWORD/PGDATABASE as psql reads them (the image's init phase sets its own)
set -eu
here=$(dirname "$0")
secret() { # name: the content of $name_FILE if set, else $name; fails when neither is set
    eval "file=\${${1}_FILE:-}"
    if [ -n "$file" ]; then cat "$file"; return; fi
    eval "value=\${${1}:-}"
    [ -n "$value" ] || { echo "apply-roles: set $1 or ${1}_FILE" >&2; exit 1; }
    printf '%s' "$value"
}
scheduler=$(secret WEFT_SCHEDULER_DB_PASSWORD)
collector=$(secret WEFT_COLLECTOR_DB_PASSWORD)
db=${PGDATABASE:-${POSTGRES_DB:-weft}}
# In the image's init phase the superuser is POSTGRES_USER (weft), not the OS user postgres.
export PGUSER="${PGUSER:-${POSTGRES_USER:-postgres}}"
psql -v ON_ERROR_STOP=1 -d "$db" -f "${WEFT_ROLES_SQL:-$here/roles.sql}"
# psql interpolates :'var' as a quoted literal, so a password cannot break out of the statement.
printf "%s\n" "ALTER ROLE weft_scheduler PASSWORD :'scheduler';" "ALTER ROLE weft_collector PASSWORD :'collector';" \
    | psql -v ON_ERROR_STOP=1 -d "$db" -v scheduler="$scheduler" -v collector="$collector"
