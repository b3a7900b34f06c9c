#!/bin/sh
# The official postgres image's start, for Debian's PostgreSQL: on an empty PGDATA, a cluster whose
# superuser is POSTGRES_USER with POSTGRES_PASSWORD (scram-sha-256 over the network, trust on the
# socket inside), and the database POSTGRES_DB; then the server, listening on every address.
set -eu
if [ "$(id -u)" = 0 ]; then
  mkdir -p "$PGDATA" /var/run/postgresql
  chown -R postgres:postgres "$PGDATA" /var/run/postgresql
  chmod 700 "$PGDATA"
  exec setpriv --reuid=postgres --regid=postgres --init-groups "$0" "$@"
fi
if [ "${1:-}" != postgres ]; then exec "$@"; fi
shift
user="${POSTGRES_USER:-postgres}"
database="${POSTGRES_DB:-$user}"
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  if [ -z "${POSTGRES_PASSWORD:-}" ]; then
    echo "POSTGRES_PASSWORD is not set: refusing to make a database reachable without one." >&2
    exit 1
  fi
  pwfile="$(mktemp)"
  printf '%s\n' "$POSTGRES_PASSWORD" > "$pwfile"
  initdb --username="$user" --pwfile="$pwfile" --auth-local=trust --auth-host=scram-sha-256 --encoding=UTF8 > /dev/null
  rm -f "$pwfile"
  echo "host all all all scram-sha-256" >> "$PGDATA/pg_hba.conf"
  if [ "$database" != postgres ]; then
    pg_ctl --silent --wait -o "-c listen_addresses=''" start
    psql --quiet -v ON_ERROR_STOP=1 --username="$user" --dbname=postgres --set=db="$database" <<'SQL'
create database :"db";
SQL
    pg_ctl --silent --wait --mode=fast stop
  fi
  echo "PostgreSQL: made a cluster in $PGDATA with the database $database."
fi
exec postgres -c listen_addresses='*' "$@"
