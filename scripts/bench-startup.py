#!/usr/bin/env python3
"""Launch to first full frame in tmux: explorer against Posting on the same collection, and
explorer on a large collection, each with the harness's own cost taken off.

Every launch starts the program in a tmux pane (120×40) and polls the pane until the frame's
markers are all on screen (the footer and a row of the collection: both programs draw a frame
whole). The floor is the same harness launching `cat` of that very frame (captured once with
its colours): what tmux, the polling and a process start cost. Each figure is the median of
--runs interleaved launches; "over the floor" is that median minus the floor's.

1. The same collection: an OpenAPI document (Discord's reduced excerpt from Tests/Fixtures,
   the largest fixture Posting's importer takes) imported by each program's own importer,
   then opened: `explorer open FILE` and `posting -c FOLDER`.
2. A large collection: Discord's document with its paths repeated (1,694 endpoints in 536 KB
   of YAML by default, more than Kubernetes' API), imported by explorer and opened: its first
   frame (which says the file is being read), and the frame that lists its endpoints.
3. With --dynamic-binary (a release build linked against the toolchain's shared libraries):
   the same launches and `explorer send` against a local server for both builds, same run.
4. With --kubernetes PATH (Kubernetes' OpenAPI document, e.g. swagger.json of
   kubernetes/kubernetes or kubernetes-client/python; Apache-2.0, not in this repository): that
   document imported (about 1,120 endpoints), and the same endpoints nine times over in folders
   `copy1`…`copy9` (about 10,100), each opened to its first full frame (its endpoints' count on
   screen, not the frame that says the file is being read); then, at 10,000 endpoints, a
   keystroke in the endpoint filter to the frame that shows its result, and a saved change of
   the file (one endpoint renamed, written whole) to the frame that shows it. The keystroke and
   the reload are also measured on the small collection, as their floor.

    scripts/bench-startup.py [--binary .build-release/release/explorer] [--posting PATH]
                             [--dynamic-binary PATH] [--kubernetes swagger.json] [--runs 15]

Build first: `swift build -c release --static-swift-stdlib --scratch-path .build-release
--product explorer` (what scripts/install builds). Posting: `python3 -m venv V && V/bin/pip
install posting 'tree-sitter<0.26'` (Posting 2.11.1 with tree-sitter 0.26 crashes in its JSON
highlighter at start). Needs tmux. Prints figures; asserts nothing.
"""
from __future__ import annotations

import argparse
import http.server
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
FIXTURES = ROOT / "Tests" / "Fixtures" / "openapi"
SOCKET = f"explorer-bench-startup-{os.getpid()}"
WIDTH, HEIGHT = 120, 40
# The footer and the endpoints pane's title: on screen together only in a full frame.
EXPLORER_MARKERS = [" q quit", "Endpoints"]


def tmux(*arguments: str, capture: bool = False) -> str:
    result = subprocess.run(["tmux", "-L", SOCKET, *arguments], check=True, text=True,
                            stdout=subprocess.PIPE if capture else subprocess.DEVNULL)
    return result.stdout if capture else ""


def screen(escapes: bool = False) -> str:
    return tmux("capture-pane", "-p", *(["-e"] if escapes else []), "-t", "bench", capture=True)


def launch(command: str, markers: list[str], timeout: float = 30.0) -> float:
    """Seconds from starting `command` in the pane until every marker is on screen."""
    tmux("respawn-pane", "-k", "-t", "bench", "clear; exec sleep 600")
    deadline = time.monotonic() + 5
    while screen().strip() and time.monotonic() < deadline:
        time.sleep(0.005)
    started = time.monotonic()
    tmux("respawn-pane", "-k", "-t", "bench", command)
    while True:
        text = screen()
        if all(marker in text for marker in markers):
            return time.monotonic() - started
        if time.monotonic() - started > timeout:
            sys.exit(f"no frame with {markers} after {timeout:.0f} s from: {command}\n{text}")
        time.sleep(0.001)


def floor_command(command: str, markers: list[str], folder: Path, name: str) -> str:
    """A command that prints, at once, the frame `command` draws."""
    launch(command, markers)
    time.sleep(1.0)  # let it settle: the frame captured is the one the floor prints
    frame = folder / f"{name}.frame"
    frame.write_text(screen(escapes=True))
    return f"cat {frame}; exec sleep 600"


def measure(rows: dict[str, tuple[str, list[str]]], runs: int) -> dict[str, list[float]]:
    """Interleaved launches of every row, `runs` rounds."""
    times: dict[str, list[float]] = {name: [] for name in rows}
    for _ in range(runs):
        for name, (command, markers) in rows.items():
            times[name].append(launch(command, markers) * 1000)
    return times


def describe(times: list[float]) -> str:
    return f"median {statistics.median(times):7.1f} ms (range {min(times):.1f}–{max(times):.1f})"


def scaled_discord(folder: Path, target_bytes: int) -> str:
    spec = importlib.util.spec_from_file_location("bench_import", ROOT / "scripts" / "bench-import.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.scaled_discord(str(folder), target_bytes=target_bytes)


def import_explorer(binary: str, document: str, into: Path) -> int:
    """Imports the document into a new collection; returns how many endpoints it has."""
    into.parent.mkdir(parents=True, exist_ok=True)
    result = subprocess.run([binary, "import", "openapi", document, "--into", str(into)], capture_output=True, text=True)
    added = re.search(r"added (\d+)", result.stdout + result.stderr)
    if result.returncode != 0 or not added:
        sys.exit(f"explorer import failed: {result.stderr}")
    return int(added.group(1))


def send_times(binary: str, collection: str, runs: int) -> list[float]:
    """`explorer send --collection COLLECTION Ping`, each launch timed whole."""
    times = []
    for _ in range(runs):
        started = time.monotonic()
        subprocess.run([binary, "send", "--collection", collection, "Ping"], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=os.path.dirname(collection))
        times.append((time.monotonic() - started) * 1000)
    return times


def nine_copies(collection: Path, into: Path) -> int:
    """The endpoints of `collection` (as `explorer import` writes it) nine times, each copy in a
    folder of its own; returns how many endpoints the new collection has."""
    text = collection.read_text()
    head, _, body = text.partition("\nendpoints:\n")
    if not body:
        sys.exit(f"{collection} has no endpoints: block")
    indented = "".join("  " + line if line.strip() else line for line in body.splitlines(keepends=True))
    copies = "".join(f"- folder: copy{index}\n  endpoints:\n{indented}" for index in range(1, 10))
    into.parent.mkdir(parents=True, exist_ok=True)
    into.write_text(head + "\nendpoints:\n" + copies)
    return 9 * len(re.findall(r"^\s*- name: ", body, re.MULTILINE))


def open_and_wait(command: str, markers: list[str]) -> None:
    tmux("respawn-pane", "-k", "-t", "bench", command)
    deadline = time.monotonic() + 30
    while not all(marker in screen() for marker in markers):
        if time.monotonic() > deadline:
            sys.exit(f"no frame with {markers} from: {command}\n{screen()}")
        time.sleep(0.005)


def wait_for(pattern: re.Pattern[str], started: float, timeout: float = 10.0) -> float:
    """Milliseconds from `started` until the pane shows `pattern`."""
    while True:
        if pattern.search(screen()):
            return (time.monotonic() - started) * 1000
        if time.monotonic() - started > timeout:
            sys.exit(f"no {pattern.pattern!r} on screen after {timeout:.0f} s:\n{screen()}")
        time.sleep(0.001)


def filter_keystrokes(command: str, markers: list[str], query: str, runs: int) -> list[float]:
    """Each keystroke of `query` typed in the endpoint filter, to the frame whose Endpoints
    title shows the filter with its count; `runs` times (Esc clears the filter between)."""
    open_and_wait(command, markers)
    times = []
    for _ in range(runs):
        tmux("send-keys", "-t", "bench", "/")
        wait_for(re.compile(r"Filter endpoints:"), time.monotonic())
        for length in range(1, len(query) + 1):
            typed = re.compile(re.escape(f"/{query[:length]} ") + r"\s+\d+( of \d+)? ")
            started = time.monotonic()
            tmux("send-keys", "-t", "bench", "-l", query[length - 1])
            times.append(wait_for(typed, started))
        tmux("send-keys", "-t", "bench", "Escape")
        wait_for(re.compile(r"^(?!.*Filter endpoints:)", re.DOTALL), time.monotonic())
    return times


def reloads(command: str, markers: list[str], collection: Path, runs: int, part: str = "environment") -> list[float]:
    """The collection's first environment (`part`: or endpoint) renamed and the file written
    whole (as an editor saves it), to the frame that lists the new name; `runs` times."""
    original = collection.read_text()
    start = original.index("\nendpoints:\n") if part == "endpoint" else 0
    first = re.compile(r"^(\s*- name: )(\S+)$", re.MULTILINE).search(original, start)
    if not first:
        sys.exit(f"no {part} in {collection}")
    open_and_wait(command, markers)
    times = []
    try:
        for run in range(runs):
            name = f"renamed{run}x"
            changed = original[: first.start(2)] + name + original[first.end(2):]
            started = time.monotonic()
            collection.write_text(changed)
            times.append(wait_for(re.compile(re.escape(name)), started))
    finally:
        collection.write_text(original)
    return times


class Quiet(http.server.BaseHTTPRequestHandler):
    def do_GET(self):  # noqa: N802 (the standard library's name)
        body = b'{"ok":true}'
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *arguments):
        pass


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=str(ROOT / ".build-release" / "release" / "explorer"))
    parser.add_argument("--posting", default=shutil.which("posting"))
    parser.add_argument("--dynamic-binary")
    parser.add_argument("--kubernetes", help="Kubernetes' OpenAPI document (swagger.json): the large collections")
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--large-bytes", type=int, default=2_300_000,
                        help="size of the scaled Discord document (2.3 MB gives 1,694 endpoints)")
    args = parser.parse_args()
    if not shutil.which("tmux"):
        sys.exit("tmux is not installed (apt-get install tmux)")
    binary = os.path.abspath(args.binary)
    if not os.path.exists(binary):
        sys.exit(f"{binary} does not exist: build it (see --help) or name one with --binary")

    folder = Path(tempfile.mkdtemp(prefix="explorer-bench-startup-"))
    env_note = f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}"
    try:
        tmux("new-session", "-d", "-s", "bench", "-x", str(WIDTH), "-y", str(HEIGHT), "exec sleep 600")
        # Keep the session's own settings out of the way: no status line, the pane the whole window.
        tmux("set-option", "-t", "bench", "status", "off")

        # A copy: Posting's importer writes a `.env` file beside the document it reads.
        small_document = str(folder / "discord-openapi-reduced.json")
        shutil.copyfile(FIXTURES / "discord-openapi-reduced.json", small_document)
        small = folder / "small" / "explorer.yaml"
        import_explorer(binary, small_document, small)
        # `open FILE` names the collection: it is opened as the user's, without the trust prompt
        # a found collection that reads the document's file gets.
        explorer_small = f"cd {small.parent} && exec {binary} open {small}"
        rows: dict[str, tuple[str, list[str]]] = {"explorer": (explorer_small, EXPLORER_MARKERS)}
        rows["floor (explorer's frame)"] = (floor_command(*rows["explorer"], folder, "explorer"), rows["explorer"][1])

        if args.posting and os.path.exists(args.posting):
            posting_folder = folder / "posting"
            result = subprocess.run([args.posting, "import", small_document, "--output", str(posting_folder), "--type", "openapi"],
                                    capture_output=True, text=True)
            if result.returncode != 0 or not any(posting_folder.rglob("*.posting.yaml")):
                sys.exit(f"posting import failed: {result.stderr[-500:]}")
            # Textual draws on stderr: left to the terminal.
            rows["posting"] = (f"cd {folder} && exec {args.posting} -c {posting_folder}", ["^c Quit", "GET gateway", "Response"])
            rows["floor (Posting's frame)"] = (floor_command(*rows["posting"], folder, "posting"), rows["posting"][1])
        else:
            print("Posting not found (--posting PATH): its rows are left out")

        if args.dynamic_binary:
            dynamic = os.path.abspath(args.dynamic_binary)
            rows["explorer, dynamic build"] = (f"cd {small.parent} && exec {dynamic} open {small}", rows["explorer"][1])

        large_document = scaled_discord(folder, args.large_bytes)
        large = folder / "large" / "explorer.yaml"
        endpoints = import_explorer(binary, large_document, large)
        large_command = f"cd {large.parent} && exec {binary} open {large}"
        # Its first frame says the file is being read; the endpoints pane's count comes with the list.
        rows["explorer, large collection"] = (large_command, EXPLORER_MARKERS)
        rows["explorer, large, list shown"] = (large_command, [" q quit", f" {endpoints} "])

        kubernetes: dict[str, tuple[Path, int]] = {}
        if args.kubernetes:
            one = folder / "kubernetes" / "explorer.yaml"
            kubernetes["1x"] = (one, import_explorer(binary, os.path.abspath(args.kubernetes), one))
            nine = folder / "kubernetes9" / "explorer.yaml"
            kubernetes["9x"] = (nine, nine_copies(one, nine))
            for label, (path, count) in kubernetes.items():
                rows[f"kubernetes {label}, list shown"] = (
                    f"cd {path.parent} && exec {binary} open {path}", [" q quit", f" {count} "])
                # The parse cache off: the YAML read at every launch (CollectionCache).
                rows[f"kubernetes {label}, no cache"] = (
                    f"cd {path.parent} && EXPLORER_COLLECTION_CACHE=off exec {binary} open {path}",
                    [" q quit", f" {count} "])

        # The parse cache filled first, as any launch that lasts fills it: a launch ended at its
        # first frame (as these are) leaves before its cache entry is written.
        for path in [large] + [path for path, _ in kubernetes.values()]:
            subprocess.run([binary, "send", "--collection", str(path), "(fill the parse cache)"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=path.parent)
        print(f"bench-startup: {args.runs} interleaved launches each, tmux {WIDTH}×{HEIGHT}, {env_note}")
        print(f"binary {binary} ({os.path.getsize(binary) / 1e6:.1f} MB)")
        print(f"same collection: {Path(small_document).name} imported by each; large: {large.stat().st_size / 1e3:.0f} KB "
              f"of YAML, {endpoints} endpoints, from {Path(large_document).name}")
        times = measure(rows, args.runs)
        for name, values in times.items():
            print(f"  {name:32} {describe(values)}")

        floor = statistics.median(times["floor (explorer's frame)"])
        explorer_over = statistics.median(times["explorer"]) - floor
        print(f"\nexplorer, over the floor: {explorer_over:.1f} ms")
        if "posting" in times:
            posting_over = statistics.median(times["posting"]) - statistics.median(times["floor (Posting's frame)"])
            print(f"Posting, over its floor: {posting_over:.1f} ms")
            print(f"explorer's first frame {posting_over / max(explorer_over, 0.1):.1f}× faster than Posting's (target ≥ 30×)")
        large_over = statistics.median(times["explorer, large collection"]) - floor
        print(f"large collection, over the floor: {large_over:.1f} ms (target ≤ 60 ms); its endpoints listed "
              f"{statistics.median(times['explorer, large, list shown']) - floor:.1f} ms over the floor")

        for label, (path, count) in kubernetes.items():
            over = statistics.median(times[f"kubernetes {label}, list shown"]) - floor
            target = 60 if label == "1x" else 150
            cold = statistics.median(times[f"kubernetes {label}, no cache"]) - floor
            print(f"kubernetes {label} ({count} endpoints, {path.stat().st_size / 1e3:.0f} KB): first full frame "
                  f"{over:.1f} ms over the floor (target ≤ {target} ms); the parse cache off {cold:.1f} ms")
        if kubernetes:
            nine, count = kubernetes["9x"]
            nine_command = f"cd {nine.parent} && exec {binary} open {nine}"
            query = "namespaced"
            small_keys = filter_keystrokes(explorer_small, EXPLORER_MARKERS, query, max(1, args.runs // 3))
            large_keys = filter_keystrokes(nine_command, [" q quit", f" {count} "], query, max(1, args.runs // 3))
            print(f"filter keystroke ({query!r} typed, {len(large_keys)} keys): small collection {describe(small_keys)}; "
                  f"{count} endpoints {describe(large_keys)}; "
                  f"{statistics.median(large_keys) - statistics.median(small_keys):.1f} ms over the small one (target ≤ 16 ms)")
            for part in ["environment", "endpoint"]:
                small_reloads = reloads(explorer_small, EXPLORER_MARKERS, small, args.runs, part)
                large_reloads = reloads(nine_command, [" q quit", f" {count} "], nine, args.runs, part)
                print(f"saved change to screen, the first {part} renamed: small collection {describe(small_reloads)}; "
                      f"{count} endpoints {describe(large_reloads)} (target ≤ 100 ms after the write)")

        if args.dynamic_binary:
            dynamic_over = statistics.median(times["explorer, dynamic build"]) - floor
            print(f"dynamic build, over the floor: {dynamic_over:.1f} ms")
            server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Quiet)
            threading.Thread(target=server.serve_forever, daemon=True).start()
            # `send` sends an endpoint of a collection: one endpoint, one environment.
            sending = tempfile.mkdtemp()
            collection = os.path.join(sending, "explorer.yaml")
            with open(collection, "w") as handle:
                handle.write("name: Ping\nenvironments:\n  - name: local\n"
                             f"    base_url: http://127.0.0.1:{server.server_address[1]}\n"
                             "endpoints:\n  - name: Ping\n    path: /ok\n")
            static_send, dynamic_send = [], []
            for _ in range(args.runs):
                static_send += send_times(binary, collection, 1)
                dynamic_send += send_times(os.path.abspath(args.dynamic_binary), collection, 1)
            shutil.rmtree(sending, ignore_errors=True)
            server.shutdown()
            print(f"explorer send, static: {describe(static_send)}; dynamic: {describe(dynamic_send)}; "
                  f"ratio {statistics.median(static_send) / statistics.median(dynamic_send):.2f}")
    finally:
        subprocess.run(["tmux", "-L", SOCKET, "kill-server"], stderr=subprocess.DEVNULL)
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
