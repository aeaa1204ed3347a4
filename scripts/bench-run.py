#!/usr/bin/env python3
"""`explorer run` of N endpoints against the demo API, against the same requests sent by curl
in a shell loop, in the same run. Prints the times and the ratio; asserts nothing.

Each endpoint is a GET of a user or a post with two assertions (status and a JSONPath), so the
runner does what a CI job does: send, check, report (JUnit written too). curl sends the same
URLs one process per request, as a shell script testing an API does.

    scripts/bench-run.py [--binary .build/release/explorer] [--endpoints 500] [--rounds 3]

Build first: `swift build -c release --static-swift-stdlib --product explorer` (as a user installs it; a
debug build works, slower).
"""
from __future__ import annotations

import argparse
import importlib.util
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("bench_tui", ROOT / "scripts" / "bench-tui.py")
bench_tui = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench_tui)
start_demo = bench_tui.start_demo


def collection_text(base_url: str, count: int) -> tuple[str, list[str]]:
    lines = ["name: Bench", "environments:", f"  - name: local", f"    base_url: {base_url}", "endpoints:"]
    urls = []
    for index in range(count):
        resource, ident = ("users", index % 10 + 1) if index % 2 == 0 else ("posts", index % 10 + 1)
        path = f"/{resource}/{ident}"
        urls.append(base_url + path)
        lines += [
            f"  - name: Request {index + 1}",
            f"    path: {path}",
            "    assert:",
            "      - status == 200",
            f"      - jsonpath $.id == {ident}",
        ]
    return "\n".join(lines) + "\n", urls


def main() -> None:
    parser = argparse.ArgumentParser()
    release = ROOT / ".build" / "release" / "explorer"
    parser.add_argument("--binary", default=str(release if release.exists() else ROOT / ".build" / "debug" / "explorer"))
    parser.add_argument("--endpoints", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=8, help="also time explorer run --jobs N")
    args = parser.parse_args()
    binary = str(Path(args.binary).resolve())
    if shutil.which("curl") is None:
        sys.exit("curl is needed for the comparison")
    folder = Path(tempfile.mkdtemp(prefix="explorer-bench-run-"))
    process, urls, _ = start_demo(binary, folder)
    # The demo logs every request to stdout: keep reading it, or a full pipe stalls the server.
    threading.Thread(target=lambda: [None for _ in process.stdout], daemon=True).start()
    try:
        text, request_urls = collection_text(urls["local"], args.endpoints)
        collection = folder / "bench.yaml"
        collection.write_text(text)
        script = folder / "curl-loop.sh"
        script.write_text("set -e\n" + "".join(f"curl -s -o /dev/null -w '%{{http_code}}\\n' '{url}' >> {folder / 'codes'}\n" for url in request_urls))
        env = {**os.environ, "XDG_STATE_HOME": str(folder / "state"), "HOME": str(folder)}

        runner_times, curl_times, jobs_times = [], [], []
        for round_number in range(1, args.rounds + 1):
            started = time.perf_counter()
            result = subprocess.run([binary, "run", "--collection", str(collection), "--no-history",
                                     "--junit", str(folder / "report.xml")], capture_output=True, text=True, env=env)
            runner_times.append(time.perf_counter() - started)
            if result.returncode != 0:
                sys.exit(f"explorer run failed ({result.returncode}): {result.stderr}\n{result.stdout[-2000:]}")
            totals = result.stdout.strip().splitlines()[-1]

            started = time.perf_counter()
            parallel = subprocess.run([binary, "run", "--collection", str(collection), "--no-history", "--jobs", str(args.jobs),
                                       "--junit", str(folder / "report-jobs.xml")], capture_output=True, text=True, env=env)
            jobs_times.append(time.perf_counter() - started)
            def rows(text: str) -> list[str]:
                return [" ".join(re.sub(r"\d+ ms", "", line).split()) for line in text.strip().splitlines()[:-1]]
            if parallel.returncode != 0 or rows(parallel.stdout) != rows(result.stdout):
                sys.exit(f"explorer run --jobs {args.jobs} differs or failed ({parallel.returncode}): {parallel.stderr}")

            (folder / "codes").unlink(missing_ok=True)
            started = time.perf_counter()
            subprocess.run(["bash", str(script)], check=True)
            curl_times.append(time.perf_counter() - started)
            codes = (folder / "codes").read_text().split()
            assert len(codes) == args.endpoints and set(codes) == {"200"}, set(codes)
            print(f"round {round_number}: explorer run {runner_times[-1]:.2f} s ({totals}); --jobs {args.jobs} {jobs_times[-1]:.2f} s; curl loop {curl_times[-1]:.2f} s")

        runner, curl, jobs = statistics.median(runner_times), statistics.median(curl_times), statistics.median(jobs_times)
        print(f"\n{args.endpoints} requests, median of {args.rounds} rounds, same run, same demo server:")
        print(f"  explorer run (2 assertions each, JUnit written): {runner:.2f} s  ({runner / args.endpoints * 1000:.2f} ms a request)")
        print(f"  curl in a shell loop:                            {curl:.2f} s  ({curl / args.endpoints * 1000:.2f} ms a request)")
        print(f"  explorer run --jobs {args.jobs}:                          {jobs:.2f} s  ({jobs / args.endpoints * 1000:.2f} ms a request)")
        print(f"  explorer run takes {runner / curl:.2f}x the curl loop's time ({curl / runner:.1f}x faster)")
        print(f"  --jobs {args.jobs} takes {jobs / runner:.2f}x the sequential run's time (the table is the same, in file order)")
    finally:
        process.terminate()
        process.wait(timeout=10)
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
