#!/usr/bin/env bash
# Virtuoso Open Source 7 (Debian's package) on loopback, for the external-store test suites.
#   .ci/virtuoso.sh start   install if missing, start if not answering, grant SPARQL updates; prints the endpoint
#   .ci/virtuoso.sh stop    stop the server this data directory belongs to
# Data lives under the checkout (.ci/work/virtuoso); ports from VIRTUOSO_HTTP_PORT / VIRTUOSO_SQL_PORT.
set -euo pipefail
cd "$(dirname "$0")/.."
dir="$PWD/.ci/work/virtuoso"
http_port="${VIRTUOSO_HTTP_PORT:-18890}"
sql_port="${VIRTUOSO_SQL_PORT:-11111}"
endpoint="http://127.0.0.1:$http_port/sparql"

healthy() { curl -fsS -m 5 "$endpoint?query=ASK%7B%7D" >/dev/null 2>&1; }

install() {
  command -v virtuoso-t >/dev/null && command -v isql-vt >/dev/null && return 0
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo -n"
  echo "installing virtuoso-opensource-7-bin" >&2
  $sudo apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq virtuoso-opensource-7-bin >&2
}

write_ini() {
  mkdir -p "$dir"
  cat >"$dir/virtuoso.ini" <<EOF
[Database]
DatabaseFile = $dir/virtuoso.db
ErrorLogFile = $dir/virtuoso.log
LockFile = $dir/virtuoso.lck
TransactionFile = $dir/virtuoso.trx
xa_persistent_file = $dir/virtuoso.pxa
ErrorLogLevel = 7
FileExtend = 200
MaxCheckpointRemap = 2000
Striping = 0
TempStorage = TempDatabase

[TempDatabase]
DatabaseFile = $dir/virtuoso-temp.db
TransactionFile = $dir/virtuoso-temp.trx
MaxCheckpointRemap = 2000
Striping = 0

[Parameters]
ServerPort = 127.0.0.1:$sql_port
DirsAllowed = ., $dir
NumberOfBuffers = 170000
MaxDirtyBuffers = 130000
CheckpointInterval = 60
MaxQueryMem = 1G
ThreadsPerQuery = 1
MaxClientConnections = 64

[HTTPServer]
ServerPort = 127.0.0.1:$http_port
ServerThreads = 64
MaxKeepAlives = 64
KeepAliveTimeout = 10

[SPARQL]
ResultSetMaxRows = 1000000
MaxQueryExecutionTime = 30
MaxQueryCostEstimationTime = 0
EOF
}

# A running server gets a few seconds to answer (one busy with a checkpoint can miss one call).
answering() {
  healthy && return 0
  pgrep -x virtuoso-t >/dev/null || return 1
  for _ in $(seq 1 10); do sleep 1; healthy && return 0; done
  return 1
}

# A server whose data directory was deleted (an earlier checkout's) keeps the ports without
# answering: a new server would exit at once ("terminated prematurely").
stop_orphans() {
  local pid
  for pid in $(pgrep -x virtuoso-t || true); do
    if [[ "$(readlink "/proc/$pid/cwd" 2>/dev/null)" == *" (deleted)" ]]; then
      echo "stopping virtuoso $pid: its data directory is gone" >&2
      kill "$pid" 2>/dev/null || true
      for _ in $(seq 1 20); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
      kill -9 "$pid" 2>/dev/null || true
    fi
  done
}

case "${1:-start}" in
start)
  install
  if ! answering; then
    stop_orphans
    write_ini
    # A stale lock file from a killed server would make the new one exit.
    if [ -f "$dir/virtuoso.lck" ]; then
      pid=$(sed -n 's/^VIRT_PID=//p' "$dir/virtuoso.lck")
      if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then kill "$pid"; sleep 2; fi
      rm -f "$dir/virtuoso.lck"
    fi
    (cd "$dir" && virtuoso-t +configfile "$dir/virtuoso.ini" +wait >/dev/null)
    for _ in $(seq 1 60); do healthy && break; sleep 0.5; done
    healthy || { echo "virtuoso did not answer on $endpoint; see $dir/virtuoso.log" >&2; exit 1; }
  fi
  # Anonymous SPARQL updates and Graph Store writes (a loopback test server only).
  isql-vt "127.0.0.1:$sql_port" dba dba \
    'exec=GRANT SPARQL_UPDATE TO "SPARQL";' \
    >/dev/null 2>&1 || true
  echo "$endpoint"
  ;;
stop)
  if [ -f "$dir/virtuoso.lck" ]; then
    pid=$(sed -n 's/^VIRT_PID=//p' "$dir/virtuoso.lck")
    [ -n "$pid" ] && kill "$pid" 2>/dev/null || true
  fi
  ;;
*)
  echo "usage: $0 start|stop" >&2
  exit 2
  ;;
esac
