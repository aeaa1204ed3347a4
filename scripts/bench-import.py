#!/usr/bin/env python3
"""Times `explorer import openapi` on real documents and on a 4 MB one scaled from a real one,
and Posting's importer on the same documents when Posting is installed.

Usage:
  scripts/bench-import.py [--bin PATH] [--runs N] [--posting PATH] [DOC ...]

Without DOC, the documents are the OpenAPI fixtures in Tests/Fixtures/openapi, the
DigitalOcean multi-file excerpt, and Discord's document scaled to about 4 MB (its paths
repeated under /copyK prefixes, written to a temporary folder). --bin defaults to
.build/release/explorer (build it with `swift build -c release --product explorer`).
--posting names Posting's executable (`pip install posting` in a venv); without it, or when it
is not found, only explorer's figures are printed. Each figure is the median wall time of
--runs runs (default 5) of the whole command, start-up included; the ratio column is
explorer's time over Posting's on the documents both import.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = os.path.join(ROOT, "Tests", "Fixtures")


def scaled_discord(folder, target_bytes=4 << 20):
    """Discord's document with its paths repeated until it is about `target_bytes`."""
    with open(os.path.join(FIXTURES, "openapi", "discord-openapi.json")) as handle:
        document = json.load(handle)
    paths = document["paths"]
    compact = (",", ":")
    paths_size = len(json.dumps(paths, separators=compact))
    rest = len(json.dumps(document, separators=compact)) - paths_size
    copies = max(1, round((target_bytes - rest) / paths_size))
    document["paths"] = {f"/copy{k}{p}" if k else p: item for k in range(copies) for p, item in paths.items()}
    path = os.path.join(folder, f"discord-x{copies}.json")
    with open(path, "w") as handle:
        json.dump(document, handle, separators=compact)
    return path


def timed(command, runs):
    """Median wall time of `runs` runs, and whether the command succeeded every time."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        result = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=tempfile.gettempdir())
        times.append(time.perf_counter() - start)
        if result.returncode != 0:
            return None, result.stderr.decode(errors="replace").strip().splitlines()[-1:] or ["failed"]
    return statistics.median(times), None


def posting_command(posting, document, output):
    # `posting import` writes a collection folder from an OpenAPI document.
    return [posting, "import", document, "--output", output, "--type", "openapi"]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", default=os.path.join(ROOT, ".build", "release", "explorer"))
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--posting", default=shutil.which("posting"))
    parser.add_argument("documents", nargs="*")
    args = parser.parse_args()
    args.bin = os.path.abspath(args.bin)  # the commands run in a temporary folder
    if not os.path.exists(args.bin):
        sys.exit(f"{args.bin} does not exist: build it with `swift build -c release --product explorer`, or name one with --bin.")
    with tempfile.TemporaryDirectory() as folder:
        documents = args.documents or [
            os.path.join(FIXTURES, "openapi", name) for name in sorted(os.listdir(os.path.join(FIXTURES, "openapi")))
        ] + [
            os.path.join(FIXTURES, "openapi-multifile", "digitalocean", "DigitalOcean-public.v2.yaml"),
            scaled_discord(folder),
        ]
        posting = args.posting if args.posting and os.path.exists(args.posting) else None
        print(f"explorer: {args.bin}; posting: {posting or 'not installed'}; median of {args.runs} runs")
        print(f"{'document':44} {'size':>9} {'explorer':>10} {'posting':>10} {'ratio':>6}")
        ratios = []
        for document in documents:
            size = os.path.getsize(document)
            mine, error = timed([args.bin, "import", "openapi", document], args.runs)
            theirs = None
            if posting:
                # Posting writes a .env file beside the document it reads: give it a copy.
                work = tempfile.mkdtemp(dir=folder)
                copy = shutil.copy(document, work)
                output = os.path.join(work, "posting-out")
                theirs, _ = timed(posting_command(posting, copy, output), args.runs)
                shutil.rmtree(work, ignore_errors=True)
            ratio = f"{mine / theirs:.2f}" if mine and theirs else "—"
            if mine and theirs:
                ratios.append(mine / theirs)
            shown_mine = f"{mine * 1000:.0f} ms" if mine else "failed"
            shown_theirs = f"{theirs * 1000:.0f} ms" if theirs else ("failed" if posting else "—")
            print(f"{os.path.basename(document)[:44]:44} {size / 1024:>7.0f} K {shown_mine:>10} {shown_theirs:>10} {ratio:>6}")
            if error:
                print(f"  explorer: {error[0][:200]}")
        if ratios:
            print(f"geometric mean of explorer / posting over {len(ratios)} documents both import: "
                  f"{statistics.geometric_mean(ratios):.2f}")


if __name__ == "__main__":
    main()
