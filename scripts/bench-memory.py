#!/usr/bin/env python3
"""Resident memory of the explorer TUI at its first frame and some seconds later, and where it goes.

Every launch opens a collection of one endpoint in a tmux pane (120×40), polls the pane until
the first full frame is on screen (the footer and the endpoints pane), then reads the
process's /proc/PID/smaps_rollup (Rss, Pss, Private_Dirty, Anonymous) and its thread count at
once, and again --after seconds after the start (6 by default: the history read, the first
request's code warmed up, the process at rest). At that second moment /proc/PID/smaps is read
too, and its resident pages are told by what they are:

- the binary's own file (its code and data touched; with a static build, the Swift runtime,
  Foundation and ICU's data too);
- the Swift toolchain's libraries (a dynamic build), ICU's among them, on their own line;
- the system's libraries (libc, ncurses, SQLite, libstdc++ …);
- [heap] (the main thread's malloc arena), other threads' malloc arenas (glibc maps each in a
  64 MiB reservation), thread stacks (a mapping under a guard page), other anonymous memory
  (large allocations, the Swift runtime's own), [stack] and the rest.

Each binary named is launched --runs times, interleaved with the others, and each figure is the
median of its launches. --reference names another build measured in the same run (the commit
before a change), so that a change is read as a difference in the same run, not against a
figure of another day.

    scripts/bench-memory.py [--binary .build/release/explorer] [--reference OTHER_BINARY ...]
                            [--runs 5] [--after 6] [--json FILE]

Build first: `swift build -c release --product explorer` (or what scripts/install builds).
Needs tmux and Linux's /proc. Prints figures; asserts nothing.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOCKET = f"explorer-bench-memory-{os.getpid()}"
WIDTH, HEIGHT = 120, 40
# The footer and the endpoints pane's title: on screen together only in a full frame.
MARKERS = [" q quit", "Endpoints"]
COLLECTION = """name: One endpoint
environments:
  - name: local
    base_url: http://127.0.0.1:9
endpoints:
  - name: Ping
    path: /ping
"""
ROLLUP_FIELDS = ["Rss", "Pss", "Private_Dirty", "Private_Clean", "Shared_Clean", "Anonymous"]
# glibc's malloc reserves each arena of a thread other than the main one as a 64 MiB mapping,
# 64 MiB aligned: what is resident of it is the arena's memory in use or kept free.
ARENA_RESERVATION = 64 << 20


def tmux(*arguments: str, capture: bool = False) -> str:
    result = subprocess.run(["tmux", "-L", SOCKET, *arguments], check=True, text=True,
                            stdout=subprocess.PIPE if capture else subprocess.DEVNULL)
    return result.stdout if capture else ""


def screen() -> str:
    return tmux("capture-pane", "-p", "-t", "bench", capture=True)


def rollup(pid: int) -> dict[str, int]:
    """smaps_rollup's fields, in KiB, and the thread count."""
    figures = {}
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
        match = re.match(r"(\w+):\s+(\d+) kB", line)
        if match and match.group(1) in ROLLUP_FIELDS:
            figures[match.group(1)] = int(match.group(2))
    status = Path(f"/proc/{pid}/status").read_text()
    figures["Threads"] = int(re.search(r"^Threads:\s+(\d+)", status, re.M).group(1))
    return figures


def mappings(pid: int) -> list[dict]:
    """/proc/PID/smaps as a list of mappings: start, end, permissions, path, Rss and Private_Dirty (KiB)."""
    result, current = [], None
    header = re.compile(r"^([0-9a-f]+)-([0-9a-f]+) (\S{4}) \S+ \S+ \d+\s*(.*)$")
    for line in Path(f"/proc/{pid}/smaps").read_text().splitlines():
        match = header.match(line)
        if match:
            current = {"start": int(match.group(1), 16), "end": int(match.group(2), 16), "perms": match.group(3),
                       "path": match.group(4).strip(), "Rss": 0, "Private_Dirty": 0}
            result.append(current)
            continue
        field = re.match(r"(Rss|Private_Dirty):\s+(\d+) kB", line)
        if field and current is not None:
            current[field.group(1)] = int(field.group(2))
    return result


def classify(maps: list[dict], binary: str) -> dict[str, dict[str, int]]:
    """Resident KiB (and private dirty KiB) by what the pages are; see the module's description."""
    kinds: dict[str, dict[str, int]] = {}

    def add(kind: str, mapping: dict) -> None:
        entry = kinds.setdefault(kind, {"Rss": 0, "Private_Dirty": 0})
        entry["Rss"] += mapping["Rss"]
        entry["Private_Dirty"] += mapping["Private_Dirty"]

    real_binary = os.path.realpath(binary)
    for index, mapping in enumerate(maps):
        path = mapping["path"]
        if path and os.path.realpath(path) == real_binary:
            add("the binary's file", mapping)
        elif "FoundationICU" in path or "libicu" in path:
            add("ICU (library and data)", mapping)
        elif path.startswith("/opt/swift") or "/usr/lib/swift/" in path:
            add("Swift runtime and Foundation libraries", mapping)
        elif path.startswith("/"):
            add("system libraries and files", mapping)
        elif path == "[heap]":
            add("[heap] (main arena)", mapping)
        elif path == "[stack]":
            add("[stack] (main thread)", mapping)
        elif path == "":
            previous = maps[index - 1] if index > 0 else None
            following = maps[index + 1] if index + 1 < len(maps) else None
            if (mapping["start"] % ARENA_RESERVATION == 0 and following is not None and following["path"] == ""
                    and following["perms"].startswith("---") and following["start"] == mapping["end"]
                    and following["end"] - mapping["start"] == ARENA_RESERVATION):
                add("malloc arenas of other threads", mapping)
            elif (mapping["start"] % ARENA_RESERVATION == 0 and mapping["end"] - mapping["start"] == ARENA_RESERVATION
                  and mapping["perms"].startswith("rw")):
                add("malloc arenas of other threads", mapping)
            elif (previous is not None and previous["path"] == "" and previous["perms"].startswith("---")
                  and previous["end"] == mapping["start"] and previous["end"] - previous["start"] <= 64 << 10
                  and mapping["perms"].startswith("rw")):
                add("thread stacks", mapping)
            else:
                add("other anonymous memory", mapping)
        else:
            add(path, mapping)
    return kinds


def launch(command: str, binary: str, after: float, timeout: float = 30.0) -> dict:
    """Starts `command` in the pane; the figures at its first frame and `after` seconds after the start."""
    tmux("respawn-pane", "-k", "-t", "bench", "clear; exec sleep 600")
    deadline = time.monotonic() + 5
    while screen().strip() and time.monotonic() < deadline:
        time.sleep(0.005)
    started = time.monotonic()
    tmux("respawn-pane", "-k", "-t", "bench", command)
    pid = int(tmux("display-message", "-p", "-t", "bench", "#{pane_pid}", capture=True).strip())
    while True:
        text = screen()
        if all(marker in text for marker in MARKERS):
            first = rollup(pid)
            frame_ms = (time.monotonic() - started) * 1000
            break
        if time.monotonic() - started > timeout:
            sys.exit(f"no frame with {MARKERS} after {timeout:.0f} s from: {command}\n{text}")
        time.sleep(0.001)
    time.sleep(max(0.0, started + after - time.monotonic()))
    later = rollup(pid)
    kinds = classify(mappings(pid), binary)
    tmux("respawn-pane", "-k", "-t", "bench", "clear; exec sleep 600")
    return {"frame_ms": frame_ms, "first": first, "later": later, "kinds": kinds}


def median(values: list[float]) -> float:
    return statistics.median(values) if values else 0.0


def mib(kib: float) -> str:
    return f"{kib / 1024:6.1f} MiB"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=str(ROOT / ".build" / "release" / "explorer"))
    parser.add_argument("--reference", action="append", default=[],
                        help="another build measured in the same run (repeatable)")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--after", type=float, default=6.0, help="seconds after the start of the second reading")
    parser.add_argument("--json", help="write every launch's figures to this file")
    parser.add_argument("--env", action="append", default=[], metavar="NAME=VALUE",
                        help="an environment variable for --binary's launches only (e.g. MALLOC_ARENA_MAX=2, to try "
                             "an allocator setting without a build; name the same binary as --reference to compare)")
    args = parser.parse_args()
    if not shutil.which("tmux"):
        sys.exit("tmux is not installed (apt-get install tmux)")
    binaries = [os.path.abspath(path) for path in [args.binary, *args.reference]]
    for binary in binaries:
        if not os.path.exists(binary):
            sys.exit(f"{binary} does not exist: build it (see --help)")

    folder = Path(tempfile.mkdtemp(prefix="explorer-bench-memory-"))
    try:
        collection = folder / "project" / "explorer.yaml"
        collection.parent.mkdir()
        collection.write_text(COLLECTION)
        # A home of its own: the history, the configuration and the drafts start empty each run.
        environment = (f"env -i TERM=xterm-256color LANG=C.UTF-8 PATH=/usr/bin:/bin HOME={folder}/home "
                       f"XDG_STATE_HOME={folder}/state XDG_CONFIG_HOME={folder}/config")
        tmux("new-session", "-d", "-s", "bench", "-x", str(WIDTH), "-y", str(HEIGHT), "exec sleep 600")
        tmux("set-option", "-t", "bench", "status", "off")
        print(f"bench-memory: {args.runs} interleaved launches per binary, one-endpoint collection, "
              f"tmux {WIDTH}×{HEIGHT}, {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}")
        labels = [f"{binaries[0]} {' '.join(args.env)}".strip()] + [
            f"{binary} (reference {index + 1})" for index, binary in enumerate(binaries[1:])]
        launches = {label: [] for label in labels}
        for _ in range(args.runs):
            for index, (label, binary) in enumerate(zip(labels, binaries)):
                extra = " ".join(args.env) if index == 0 else ""
                command = f"cd {collection.parent} && exec {environment} {extra} {binary} open {collection}"
                launches[label].append(launch(command, binary, args.after))
        print(f"load average at the end {os.getloadavg()[0]:.2f}")
        for label, binary in zip(labels, binaries):
            runs = launches[label]
            print(f"\n{label} ({os.path.getsize(binary) / 1e6:.1f} MB), medians of {len(runs)} launches:")
            print(f"  first frame after {median([run['frame_ms'] for run in runs]):.0f} ms (tmux polling included)")
            for moment, label in [("first", "at the first frame"), ("later", f"{args.after:g} s after the start")]:
                figures = {field: median([run[moment][field] for run in runs]) for field in ROLLUP_FIELDS + ["Threads"]}
                print(f"  {label:22} Rss {mib(figures['Rss'])}  Private_Dirty {mib(figures['Private_Dirty'])}  "
                      f"Anonymous {mib(figures['Anonymous'])}  Pss {mib(figures['Pss'])}  "
                      f"threads {figures['Threads']:.0f}")
            kinds = sorted({kind for run in runs for kind in run["kinds"]},
                           key=lambda kind: -median([run["kinds"].get(kind, {}).get("Rss", 0) for run in runs]))
            print(f"  resident {args.after:g} s after the start, by what it is (Rss, of it private dirty):")
            for kind in kinds:
                rss = median([run["kinds"].get(kind, {}).get("Rss", 0) for run in runs])
                dirty = median([run["kinds"].get(kind, {}).get("Private_Dirty", 0) for run in runs])
                if rss >= 64:
                    print(f"    {kind:42} {mib(rss)}  {mib(dirty)}")
        if len(binaries) > 1:
            base = launches[labels[0]]
            print(f"\ndifferences to {labels[0]}, same run (medians):")
            for other in labels[1:]:
                for moment in ["first", "later"]:
                    difference = median([run[moment]["Rss"] for run in launches[other]]) - median(
                        [run[moment]["Rss"] for run in base])
                    print(f"  {other}: Rss at {moment}: {difference / 1024:+.1f} MiB")
        if args.json:
            Path(args.json).write_text(json.dumps(launches, indent=1))
    finally:
        subprocess.run(["tmux", "-L", SOCKET, "kill-server"], stderr=subprocess.DEVNULL)
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
