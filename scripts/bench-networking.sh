#!/usr/bin/env bash
# Builds the Networking benchmark in release and runs it: small GETs through NetworkDispatcher,
# the raw AsyncHTTPClient transport, raw HTTPClient and curl in a loop (sequential and 32
# concurrent), then a 100 MB body's time and peak memory. Prints figures; asserts nothing.
# Extra arguments go to the benchmark: --requests N --curl-requests N --concurrency N --body-mb N
# --rounds N (alternating rounds, the ratio per pair of them, their median and its interval)
# --load N (N busy processes on the machine meanwhile: the loaded case) --show-rounds (every
# pair's ratio) --only-pairs --only-concurrent --profile MODE --compare MODE (see main.swift).
# The dispatcher's target, loaded: scripts/bench-networking.sh --only-pairs --only-concurrent --load 2
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product networking-bench 2>&1 | tail -3
exec .build/release/networking-bench "$@"
