#!/usr/bin/env python3
"""Measures bodies as streams, against curl fetching the same URL in the same run.

For JSON bodies of about 10, 50 and 200 MB and a binary body (1 GB by default), in the TUI in a
real pseudo-terminal (pyte reads the screen): Enter to the status line, to the first body
lines, to the complete body; keystroke-to-frame while it streams; peak RSS. Then
`explorer send` of the binary body piped to /dev/null (time and peak RSS against curl), and
an endless body held in the TUI (RSS after `--hold` seconds).

    scripts/bench-streams.py [--binary .build/release/explorer] [--sizes 10,50,200] [--binary-mb 1024] [--hold 60]

Build first: `swift build -c release --static-swift-stdlib --product explorer` (as a user installs it; a
debug build works, slower).
Needs pyte (`pip install pyte`) and curl.
"""
from __future__ import annotations

import argparse
import importlib.util
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("bench_tui", ROOT / "scripts" / "bench-tui.py")
bench_tui = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench_tui)
Terminal, start_demo = bench_tui.Terminal, bench_tui.start_demo

# /large writes about 114 bytes an item.
ITEMS_PER_MB = 1_000_000 / 114


def curl_time(url: str) -> tuple[float, int]:
    out = subprocess.run(["curl", "-s", "-o", "/dev/null", "-w", "%{time_total} %{size_download}", url],
                         capture_output=True, text=True, check=True).stdout.split()
    return float(out[0]), int(out[1])


def focused(text: str) -> str:
    return text.splitlines()[-1].rstrip().rsplit(" ", 1)[-1]


def tui_body(binary: str, collection: Path, env: dict[str, str], name: str, first_line, complete) -> dict[str, float]:
    """Sends endpoint `name` in the TUI; returns seconds to status, first lines, complete; key latency; peak RSS."""
    term = Terminal([binary, str(collection)], env)
    try:
        term.wait_for(lambda t: "q quit" in t)
        idle = term.settled_rss_kib() / 1024
        term.send(f"/{name}\r".encode())
        term.wait_for(lambda t: "Filter endpoints" not in t)
        sent = time.monotonic()
        term.send(b"\r")
        status = first = None
        latencies = []
        panes = ["History", "Request", "Response", "Environments", "Endpoints"]
        while time.monotonic() - sent < 600:
            text = term.text()
            now = time.monotonic() - sent
            if status is None and "200 OK" in text:
                status = now
            if first is None and first_line(text):
                first = now
            if complete(text):
                break
            if first is not None:
                # A keystroke while the body streams: Tab moves the focus; the footer names it.
                current = focused(text)
                expected = panes[(panes.index(current) + 1) % len(panes)] if current in panes else None
                start = time.monotonic()
                term.send(b"\t")
                if expected:
                    try:
                        term.wait_for(lambda t, e=expected: focused(t) == e, timeout=10)
                        latencies.append(time.monotonic() - start)
                    except TimeoutError:
                        pass
            else:
                term.pump(0.002)
        done = time.monotonic() - sent
        return {"status": status or done, "first": first or done, "complete": done,
                "key": statistics.median(latencies) if latencies else float("nan"),
                "keys": len(latencies), "rss": term.peak_rss_kib() / 1024, "idle": idle}
    finally:
        term.close()


def report(label: str, result: dict[str, float], curl_seconds: float, size: int | None) -> None:
    grown = result["rss"] - result["idle"]
    memory = (f"peak RSS {result['rss']:5.0f} MiB, {grown:4.0f} MiB over the idle process's {result['idle']:.0f}"
              + (f" = {grown * 1048576 / size:.2f}× the body" if size else ""))
    print(f"  {label}: status {result['status'] * 1000:6.0f} ms, first lines {result['first'] * 1000:6.0f} ms, "
          f"complete {result['complete'] * 1000:7.0f} ms ({result['complete'] / curl_seconds:5.1f}× curl's {curl_seconds * 1000:.0f} ms); "
          f"key {result['key'] * 1000:5.1f} ms over {result['keys']}; {memory}")


def send_piped(binary: str, collection: Path, env: dict[str, str], name: str) -> tuple[float, float]:
    # stderr to a file, not a pipe nobody reads until the end: a full pipe would stall the child.
    with tempfile.TemporaryFile() as errors:
        start = time.monotonic()
        process = subprocess.Popen([binary, "send", "--collection", str(collection), name, "--no-history"],
                                   stdout=subprocess.DEVNULL, stderr=errors, env=env)
        _, status, usage = os.wait4(process.pid, 0)
        elapsed = time.monotonic() - start
        if os.waitstatus_to_exitcode(status) != 0:
            errors.seek(0)
            raise RuntimeError(errors.read().decode(errors="replace"))
    return elapsed, usage.ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser()
    release = ROOT / ".build" / "release" / "explorer"
    parser.add_argument("--binary", default=str(release if release.exists() else ROOT / ".build" / "debug" / "explorer"))
    parser.add_argument("--sizes", default="10,50,200", help="JSON body sizes in MB")
    parser.add_argument("--binary-mb", type=int, default=1024, help="size of the binary body in MB")
    parser.add_argument("--hold", type=float, default=60, help="seconds to hold an endless body in the TUI")
    args = parser.parse_args()
    binary = str(Path(args.binary).resolve())
    folder = Path(tempfile.mkdtemp(prefix="explorer-streams-"))
    env = {"TERM": "xterm-256color", "LANG": "C.UTF-8", "HOME": str(folder), "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
           "XDG_STATE_HOME": str(folder / "state"), "XDG_CONFIG_HOME": str(folder / "config")}
    # Settings given to this script (EXPLORER_HISTORY_BODY_CAP=64K, …) reach the explorer.
    env.update({name: value for name, value in os.environ.items() if name.startswith("EXPLORER_")})
    config = folder / "config" / "explorer" / "config.yaml"
    config.parent.mkdir(parents=True)
    config.write_text(f"max_body: {max(2048, args.binary_mb * 2)}M\n")
    demo, urls, collection = start_demo(binary, folder)
    try:
        print(f"binary: {binary}")
        sizes = [int(size) for size in args.sizes.split(",") if size]
        extra = "".join(f"  - name: JSON {mb} MB\n    path: /large\n    query: {{ items: \"{int(mb * ITEMS_PER_MB)}\" }}\n" for mb in sizes)
        extra += f"  - name: Binary {args.binary_mb} MB\n    path: /stream/bytes\n    query: {{ size: \"{args.binary_mb << 20}\" }}\n"
        collection.write_text(collection.read_text() + extra)
        base = urls["local"]

        print("TUI, Enter to: status line / first body lines / complete; key = Tab to frame while streaming (median)")
        for mb in sizes:
            url = f"{base}/large?items={int(mb * ITEMS_PER_MB)}"
            curl_seconds, size = curl_time(url)
            result = tui_body(binary, collection, env, f"JSON {mb} MB",
                              first_line=lambda t: '"id": 1,' in t,
                              complete=lambda t: '"id": 1,' in t and "so far" not in t)
            report(f"JSON {size / 1e6:6.1f} MB", result, curl_seconds, size)

        url = f"{base}/stream/bytes?size={args.binary_mb << 20}"
        curl_seconds, size = curl_time(url)
        result = tui_body(binary, collection, env, f"Binary {args.binary_mb} MB",
                          first_line=lambda t: "00000000  " in t,
                          complete=lambda t: "00000000  " in t and "so far" not in t)
        report(f"binary {size / 1e6:6.0f} MB", result, curl_seconds, None)

        seconds, rss = send_piped(binary, collection, env, f"Binary {args.binary_mb} MB")
        curl_seconds, size = curl_time(url)
        print(f"send of the {size / 1e6:.0f} MB body piped to /dev/null: {seconds * 1000:.0f} ms = {seconds / curl_seconds:.1f}× curl's "
              f"{curl_seconds * 1000:.0f} ms; peak RSS {rss:.0f} MiB")

        config.write_text("")  # the default max_body
        term = Terminal([binary, str(collection)], env)
        try:
            term.wait_for(lambda t: "q quit" in t)
            term.send(b"/Endless body\r")
            term.wait_for(lambda t: "Filter endpoints" not in t)
            term.send(b"\r")
            deadline = time.monotonic() + args.hold
            while time.monotonic() < deadline:
                term.pump(0.05)
            stopped = "body limit" in term.text()
            print(f"endless body held {args.hold:.0f} s in the TUI (default max_body): RSS {term.rss_kib() / 1024:.0f} MiB now, "
                  f"peak {term.peak_rss_kib() / 1024:.0f} MiB; {'stopped at the body limit, what arrived shown' if stopped else 'still streaming'}")
        finally:
            term.close()
    finally:
        demo.send_signal(2)
        demo.wait()


if __name__ == "__main__":
    sys.exit(main())
