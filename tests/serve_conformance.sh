# Sourced by tests/conformance_suite.sh and tests/python_sdk.sh: builds and starts
# `examples/conformance.rs` on a free port, stops it when the script exits, and sets URL to
# where it serves MCP (the first line it prints).
cargo build --quiet --example conformance
CONFORMANCE_OUT="$(mktemp)"
target/debug/examples/conformance --port 0 > "$CONFORMANCE_OUT" &
CONFORMANCE_SERVER=$!
trap 'kill "$CONFORMANCE_SERVER" 2>/dev/null || true; rm -f "$CONFORMANCE_OUT"' EXIT
for _ in $(seq 1 100); do
  if [ -s "$CONFORMANCE_OUT" ]; then break; fi
  if ! kill -0 "$CONFORMANCE_SERVER" 2>/dev/null; then echo "the conformance server exited" >&2; exit 1; fi
  sleep 0.1
done
URL="$(head -n 1 "$CONFORMANCE_OUT" | sed -n 's/^listening on //p')"
if [ -z "$URL" ]; then
  echo "the conformance server did not say where it listens" >&2
  exit 1
fi
