#!/usr/bin/env python3
"""Measures the explorer TUI as a user feels it, in a real pseudo-terminal (pyte reads the screen).

Prints: launch to first full frame (the demo collection and a 500-endpoint one), to the
History pane's row of an exchange sent before, and from Enter to the status line of the
process's first and second small request, each as median and range over `--runs`, the time a
~50 MB JSON body takes to show against curl fetching the same URL in the same run,
keystroke-to-frame latency while that body loads and while scrolling it, and peak memory.

    scripts/bench-tui.py [--binary .build/release/explorer] [--items 440000] [--runs 10] [--launch-only]

Build first: `swift build -c release --static-swift-stdlib --product explorer` (as a user installs it; a
debug build works, slower).
Needs pyte (`pip install pyte`).
"""
from __future__ import annotations

import argparse
import fcntl
import os
import pty
import re
import select
import signal
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import threading
import time
from pathlib import Path

import pyte

ROOT = Path(__file__).resolve().parents[1]
WIDTH, HEIGHT = 120, 40
# A demo endpoint sent once before the launches, so that the History pane has a row to show.
HISTORY_SEED = "List users"


class Terminal:
    """A process in a pseudo-terminal, its screen kept by pyte."""

    def __init__(self, argv: list[str], env: dict[str, str]):
        self.screen = pyte.Screen(WIDTH, HEIGHT)
        self.stream = pyte.ByteStream(self.screen)
        self.started = time.monotonic()
        self.arrived = self.started
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            os.execve(argv[0], argv, env)
        fcntl.ioctl(self.fd, termios.TIOCSWINSZ, struct.pack("HHHH", HEIGHT, WIDTH, 0, 0))

    def pump(self, timeout: float) -> bool:
        """Reads what the process wrote, waiting up to `timeout` for the first byte, and feeds it
        to the screen. Everything already written is read before any of it is fed (pyte takes
        milliseconds a frame), and `self.arrived` is when the last of it was read: the time a
        screen was on the terminal, not when this script had finished parsing it."""
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if not ready:
            return False
        data = b""
        while True:
            try:
                chunk = os.read(self.fd, 1 << 16)
            except OSError:
                break
            data += chunk
            self.arrived = time.monotonic()
            if not chunk or not select.select([self.fd], [], [], 0)[0]:
                break
        self.stream.feed(data)
        return bool(data)

    def text(self) -> str:
        return "\n".join(self.screen.display)

    def wait_for(self, predicate, timeout: float = 120.0, since: float | None = None) -> float:
        """Seconds from `since` (default: now) until the screen on which `predicate(screen text)`
        holds arrived (see `pump`)."""
        start = time.monotonic() if since is None else since
        while time.monotonic() - start < timeout:
            if predicate(self.text()):
                return max(self.arrived - start, 0.0)
            self.pump(0.005)
        raise TimeoutError(f"screen never matched; last screen:\n{self.text()}")

    def send(self, data: bytes) -> None:
        os.write(self.fd, data)

    def memory_kib(self, field: str) -> int:
        """A memory figure of the process from /proc (VmRSS: resident now; VmHWM: its peak)."""
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1])
        return 0

    def peak_rss_kib(self) -> int:
        return self.memory_kib("VmHWM")

    def rss_kib(self) -> int:
        return self.memory_kib("VmRSS")

    def settled_rss_kib(self, window: float = 0.5, tolerance_kib: int = 256, limit: float = 5.0) -> int:
        """The resident memory of the process at rest: sampled until it has stayed within
        `tolerance_kib` for `window` seconds (at most `limit` seconds). Right after the first
        frame the history is still being read and the first request's code run once (the
        warm-up), so a sample taken then is not the idle process's and moves by several MiB
        from one launch to the next."""
        start = time.monotonic()
        low = high = self.rss_kib()
        since = start
        while time.monotonic() - start < limit:
            self.pump(0.05)
            now_kib = self.rss_kib()
            low, high = min(low, now_kib), max(high, now_kib)
            if high - low > tolerance_kib:
                low = high = now_kib
                since = time.monotonic()
            elif time.monotonic() - since >= window:
                break
        return self.rss_kib()

    def close(self) -> None:
        try:
            os.kill(self.pid, signal.SIGTERM)
            os.waitpid(self.pid, 0)
        except (ProcessLookupError, ChildProcessError):
            pass
        os.close(self.fd)


def start_demo(binary: str, folder: Path) -> tuple[subprocess.Popen, dict[str, str], Path]:
    collection = folder / "demo.yaml"
    process = subprocess.Popen([binary, "demo", "--serve-only", "--collection-out", str(collection)],
                               stdout=subprocess.PIPE, text=True)
    urls = {}
    for line in process.stdout:
        match = re.match(r"\s+(\w+)\s+(http://\S+)", line)
        if match:
            urls[match.group(1)] = match.group(2)
        if line.startswith("collection:"):
            break
    # The demo logs every request to stdout: keep reading it, or a full pipe stalls the server
    # (and with it the benchmark).
    threading.Thread(target=lambda: [None for _ in process.stdout], daemon=True).start()
    return process, urls, collection


def launch_times(binary: str, collection: Path, env: dict[str, str], runs: int, history_row: str | None = None,
                 requests: dict[str, list[float]] | None = None) -> tuple[list[float], list[float]]:
    """Seconds from fork to the first full frame (the panes' titles and the footer), and, when
    `history_row` is given, to that endpoint's row (GET, name, environment, status) in the History pane, over
    `runs` launches. When `requests` is given, each launch then sends two small demo requests
    and adds the seconds from Enter to each one's status line to `requests["cold"]` (the
    process's first request) and `requests["warm"]` (its second)."""
    frames, rows = [], []
    for _ in range(runs):
        term = Terminal([binary, str(collection)], env)
        frames.append(term.wait_for(lambda text: "Endpoints" in text and "History" in text and "q quit" in text, since=term.started))
        if history_row:
            # A History row: method, name, then environment, status and duration (the clock time
            # only when the pane has room for it).
            row = re.compile(r"GET +" + re.escape(history_row) + r" +\w+ +\d{3} +[\d.]+m?s")
            rows.append(term.wait_for(lambda text: row.search(text) is not None, since=term.started))
        if requests is not None:
            requests.setdefault("cold", []).append(status_time(term, "List users"))
            requests.setdefault("warm", []).append(status_time(term, "Get user"))
        term.close()
    return frames, rows


def status_time(term: Terminal, endpoint: str) -> float:
    """Selects `endpoint` with the endpoint filter, then gives the seconds from Enter to its
    response's status line (the status and the endpoint's name) on screen."""
    term.send(b"/" + endpoint.encode() + b"\r")
    term.wait_for(lambda text: "Filter endpoints" not in text and re.search(r"GET +" + re.escape(endpoint) + r" *│", text) is not None)
    status = re.compile(r"200 OK .*/" + re.escape(endpoint) + r" *│")
    sent = time.monotonic()
    term.send(b"\r")
    return term.wait_for(lambda text: status.search(text) is not None, since=sent)


def figure(times: list[float]) -> str:
    ms = sorted(t * 1000 for t in times)
    return f"median {statistics.median(ms):.0f} ms, range {ms[0]:.0f}–{ms[-1]:.0f} ms over {len(ms)} runs"


def main() -> None:
    parser = argparse.ArgumentParser()
    release = ROOT / ".build" / "release" / "explorer"
    parser.add_argument("--binary", default=str(release if release.exists() else ROOT / ".build" / "debug" / "explorer"))
    parser.add_argument("--items", type=int, default=440_000, help="items of /large (440,000 is about 50 MB)")
    parser.add_argument("--runs", type=int, default=10, help="launches measured for each launch figure")
    parser.add_argument("--launch-only", action="store_true", help="measure the launch figures only")
    args = parser.parse_args()
    binary = str(Path(args.binary).resolve())
    folder = Path(tempfile.mkdtemp(prefix="explorer-bench-"))
    env = {"TERM": "xterm-256color", "LANG": "C.UTF-8", "HOME": str(folder), "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
           "XDG_STATE_HOME": str(folder / "state"), "XDG_CONFIG_HOME": str(folder / "config")}
    demo, urls, collection = start_demo(binary, folder)
    try:
        print(f"binary: {binary}")
        text = collection.read_text()
        collection.write_text(text + f"  - name: Huge JSON\n    path: /large\n    query: {{ items: \"{args.items}\" }}\n")
        big = folder / "big.yaml"
        big.write_text(text + "".join(f"  - name: Endpoint {n}\n    path: /users/{n % 20 + 1}\n" for n in range(500)))

        # One exchange in the history, so that the launch also shows a history row.
        subprocess.run([binary, "send", "--collection", str(collection), HISTORY_SEED], env=env, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        requests: dict[str, list[float]] = {}
        frames, rows = launch_times(binary, collection, env, args.runs, history_row=HISTORY_SEED, requests=requests)
        print(f"launch to first full frame, demo collection: {figure(frames)}")
        print(f"launch to its history row shown:             {figure(rows)}")
        print(f"first request of the process, Enter to status: {figure(requests['cold'])}")
        print(f"second request, Enter to status:               {figure(requests['warm'])}")
        frames, _ = launch_times(binary, big, env, args.runs)
        print(f"launch to first full frame, 500 endpoints:   {figure(frames)}")
        if args.launch_only:
            return

        url = f"{urls['local']}/large?items={args.items}"
        curl = subprocess.run(["curl", "-s", "-o", "/dev/null", "-w", "%{time_total} %{size_download}", url],
                              capture_output=True, text=True, check=True).stdout.split()
        curl_seconds, size = float(curl[0]), int(curl[1])
        print(f"body: {size / 1e6:.1f} MB; curl fetches it in {curl_seconds * 1000:.0f} ms")

        term = Terminal([binary, str(collection)], env)
        term.wait_for(lambda t: "q quit" in t)
        idle = term.settled_rss_kib()
        term.send(b"/Huge JSON\r")
        term.wait_for(lambda t: "Filter endpoints" not in t)
        sent = time.monotonic()
        term.send(b"\r")
        # Keystrokes while the body loads: Tab moves the focus; the footer names the pane.
        latencies = []
        panes = ["History", "Request", "Response", "Environments", "Endpoints"]
        index = 0
        def body_shown(text):
            return "200 OK" in text and '"id": 1,' in text
        head = None
        while not body_shown(term.text()) and time.monotonic() - sent < 120:
            if head is None and "200 OK" in term.text():
                head = term.arrived - sent
            expected = panes[index % len(panes)]
            start = time.monotonic()
            term.send(b"\t")
            latencies.append(term.wait_for(lambda t, e=expected: t.splitlines()[-1].rstrip().endswith(e), since=start))
            index += 1
        shown = term.wait_for(body_shown, since=sent)
        if head is not None:
            print(f"status line and headers shown {head * 1000:.0f} ms after Enter (the body still streaming)")
        print(f"explorer shows it (status, first lines) {shown * 1000:.0f} ms after Enter: {shown / curl_seconds:.1f}× curl's time")
        if latencies:
            print(f"keystroke to frame while it loads: median {statistics.median(latencies) * 1000:.1f} ms, "
                  f"max {max(latencies) * 1000:.1f} ms over {len(latencies)} keys")
        # Focus the response pane (Tab, waiting for each pane's name in the footer), then
        # scroll it a page at a time.
        def focused(text):
            return text.splitlines()[-1].rstrip().rsplit(" ", 1)[-1]
        term.wait_for(lambda t: focused(t) in panes)
        while focused(term.text()) != "Response":
            expected = panes[(panes.index(focused(term.text())) + 1) % len(panes)]
            term.send(b"\t")
            term.wait_for(lambda t, e=expected: focused(t) == e)
        scroll = []
        for _ in range(30):
            before = re.search(r" (\d+)/\d+ ", term.text())
            start = time.monotonic()
            term.send(b"\x1b[6~")  # PageDown
            scroll.append(term.wait_for(lambda t, b=before: (m := re.search(r" (\d+)/\d+ ", t)) is not None and (b is None or m.group(1) != b.group(1)), since=start))
        print(f"keystroke to frame scrolling the body: median {statistics.median(scroll) * 1000:.1f} ms, "
              f"p90 {sorted(scroll)[int(len(scroll) * 0.9)] * 1000:.1f} ms, max {max(scroll) * 1000:.1f} ms over {len(scroll)} keys")
        # The search covers what has arrived: wait for the whole body (its "so far" line goes).
        complete = term.wait_for(lambda t: "so far" not in t, since=sent)
        print(f"the whole body in, searchable, {complete * 1000:.0f} ms after Enter: {complete / curl_seconds:.1f}× curl's time")
        start = time.monotonic()
        term.send(b"/")
        term.wait_for(lambda t: "Search body" in t)
        term.send(b"item 439999\r")
        print(f"search of the whole body: {term.wait_for(lambda t: 'match 1/' in t, since=start) * 1000:.0f} ms")
        peak = term.peak_rss_kib()
        print(f"peak memory (VmHWM): {peak / 1024:.0f} MiB = {peak * 1024 / size:.1f}× the body size; "
              f"{(peak - idle) / 1024:.0f} MiB over the idle process ({idle / 1024:.0f} MiB) = {(peak - idle) * 1024 / size:.1f}× the body")
        term.close()
    finally:
        demo.send_signal(signal.SIGINT)
        demo.wait()


if __name__ == "__main__":
    sys.exit(main())
