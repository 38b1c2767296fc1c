#!/usr/bin/env bash
# s3rver (npm, a devDependency) on loopback: the S3-protocol server the S3 BlobStore tests run against.
#   .ci/s3rver.sh start   start it unless one from this checkout already answers; prints its endpoint
#   .ci/s3rver.sh stop    stop the one this checkout started
# Data and state live under .ci/work/s3rver; the port is a free one, chosen at start and kept.
# Credentials are s3rver's fixed S3RVER / S3RVER (it never checks signatures).
set -euo pipefail
cd "$(dirname "$0")/.."
dir="$PWD/.ci/work/s3rver"
mkdir -p "$dir/data"

answers() {
  # Any HTTP answer will do (anonymous ListBuckets is refused, but the server is up).
  node -e 'fetch(process.argv[1], { signal: AbortSignal.timeout(3000) }).then(() => process.exit(0), () => process.exit(1))' "$1" 2>/dev/null
}

running() {
  [ -f "$dir/pid" ] && [ -f "$dir/port" ] && kill -0 "$(cat "$dir/pid")" 2>/dev/null && answers "http://127.0.0.1:$(cat "$dir/port")"
}

start() {
  if running; then
    echo "http://127.0.0.1:$(cat "$dir/port")"
    return 0
  fi
  rm -f "$dir/pid" "$dir/port"
  : >"$dir/log"
  # Port 0: the kernel picks a free port; s3rver prints the one it got.
  nohup node node_modules/s3rver/bin/s3rver.js -d "$dir/data" -a 127.0.0.1 -p 0 --silent >"$dir/log" 2>&1 &
  echo $! >"$dir/pid"
  for _ in $(seq 1 150); do
    port=$(sed -n 's/.*listening on 127\.0\.0\.1:\([0-9][0-9]*\).*/\1/p' "$dir/log" | head -n 1)
    if [ -n "$port" ] && answers "http://127.0.0.1:$port"; then
      echo "$port" >"$dir/port"
      echo "http://127.0.0.1:$port"
      return 0
    fi
    kill -0 "$(cat "$dir/pid")" 2>/dev/null || break
    sleep 0.2
  done
  echo "s3rver did not start:" >&2
  cat "$dir/log" >&2
  return 1
}

stop() {
  [ -f "$dir/pid" ] && kill "$(cat "$dir/pid")" 2>/dev/null || true
  rm -f "$dir/pid" "$dir/port"
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  *) echo "usage: $0 start|stop" >&2; exit 2 ;;
esac
