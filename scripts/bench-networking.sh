#!/usr/bin/env bash
# Builds the Networking benchmark in release and runs it: small GETs through NetworkDispatcher,
# the raw AsyncHTTPClient transport, raw HTTPClient and curl in a loop (sequential and 32
# concurrent), then a 100 MB body's time and peak memory. Prints figures; asserts nothing.
# Extra arguments go to the benchmark: --requests N --curl-requests N --concurrency N --body-mb N
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product networking-bench 2>&1 | tail -3
exec .build/release/networking-bench "$@"
