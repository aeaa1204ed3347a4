#!/usr/bin/env python3
"""Times `explorer import openapi` on real documents and on a 4 MB one scaled from a real one,
each next to a reference measured in the same run, and Posting's importer on the same documents
when Posting is installed.

Usage:
  scripts/bench-import.py [--bin PATH] [--runs N] [--posting PATH] [--add DOC ...] [DOC ...]

Without DOC, the documents are the OpenAPI fixtures in Tests/Fixtures/openapi, Stripe's
(Tests/Fixtures/stripe/spec3.json), the DigitalOcean multi-file excerpt, and Discord's document
scaled to about 4 MB (its paths repeated under /copyK prefixes, written to a temporary folder);
--add appends a document to them (DocuSign's eSignature 2.1 description, 4 MB, is not a
fixture: `--add esignature.rest.swagger-v2.1.json`). --bin defaults to
.build/release/explorer (build it with `swift build -c release --product explorer`).
--posting names Posting's executable (`pip install posting` in a venv); without it, or when it
is not found, only explorer's figures are printed. Each figure is the median wall time of
--runs runs (default 5) of the whole command, start-up included.

The reference is Python reading the same document (`json.load`, or `yaml.safe_load` with the C
loader for YAML when PyYAML has it; the row says which), timed as a whole command the same
way and interleaved with explorer's runs, so a loaded machine slows both: "x ref" is
explorer's time over it. The ratio column is explorer's time over Posting's on the documents
both import. Rows over --target seconds (default 1.2) are marked.
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


def run_once(command):
    """The wall time of one run, and the last line of its error output when it failed."""
    start = time.perf_counter()
    result = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=tempfile.gettempdir())
    elapsed = time.perf_counter() - start
    if result.returncode != 0:
        return None, result.stderr.decode(errors="replace").strip().splitlines()[-1:] or ["failed"]
    return elapsed, None


def timed(command, runs):
    """Median wall time of `runs` runs, and whether the command succeeded every time."""
    times = []
    for _ in range(runs):
        elapsed, error = run_once(command)
        if error:
            return None, error
        times.append(elapsed)
    return statistics.median(times), None


def timed_pair(command, reference, runs):
    """Medians of `command` and `reference`, run alternately; the first error of `command`."""
    mine, theirs = [], []
    for _ in range(runs):
        elapsed, error = run_once(command)
        if error:
            return None, None, error
        mine.append(elapsed)
        elapsed, _ = run_once(reference)
        theirs.append(elapsed)
    references = [t for t in theirs if t is not None]
    return statistics.median(mine), (statistics.median(references) if references else None), None


def reference_command(document):
    """Python reading the document: `json.load`, or PyYAML's C loader for YAML (its pure-Python
    loader when the C one is missing: the row's label says which)."""
    if document.endswith((".yaml", ".yml")):
        try:
            import yaml  # noqa: F401

            loader = "CSafeLoader" if hasattr(yaml, "CSafeLoader") else "SafeLoader"
        except ImportError:
            return None, "—"
        code = f"import sys, yaml; yaml.load(open(sys.argv[1]), Loader=yaml.{loader})"
        return [sys.executable, "-c", code, document], f"yaml {loader}"
    code = "import json, sys; json.load(open(sys.argv[1]))"
    return [sys.executable, "-c", code, document], "json.load"


def posting_command(posting, document, output):
    # `posting import` writes a collection folder from an OpenAPI document.
    return [posting, "import", document, "--output", output, "--type", "openapi"]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", default=os.path.join(ROOT, ".build", "release", "explorer"))
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--posting", default=shutil.which("posting"))
    parser.add_argument("--add", action="append", default=[], help="a document added to the default ones")
    parser.add_argument("--target", type=float, default=1.2, help="seconds; slower rows are marked")
    parser.add_argument("documents", nargs="*")
    args = parser.parse_args()
    args.bin = os.path.abspath(args.bin)  # the commands run in a temporary folder
    if not os.path.exists(args.bin):
        sys.exit(f"{args.bin} does not exist: build it with `swift build -c release --product explorer`, or name one with --bin.")
    with tempfile.TemporaryDirectory() as folder:
        documents = args.documents or [
            os.path.join(FIXTURES, "openapi", name) for name in sorted(os.listdir(os.path.join(FIXTURES, "openapi")))
        ] + [
            os.path.join(FIXTURES, "stripe", "spec3.json"),
            os.path.join(FIXTURES, "openapi-multifile", "digitalocean", "DigitalOcean-public.v2.yaml"),
            scaled_discord(folder),
        ]
        documents += [os.path.abspath(document) for document in args.add]
        posting = args.posting if args.posting and os.path.exists(args.posting) else None
        print(f"explorer: {args.bin}; posting: {posting or 'not installed'}; median of {args.runs} runs; "
              f"load average {os.getloadavg()[0]:.1f} at the start")
        print(f"{'document':44} {'size':>9} {'explorer':>10} {'reference':>24} {'x ref':>6} {'posting':>10} {'ratio':>6}")
        ratios = []
        for document in documents:
            size = os.path.getsize(document)
            reference, label = reference_command(document)
            command = [args.bin, "import", "openapi", document]
            if reference:
                mine, theirs_ref, error = timed_pair(command, reference, args.runs)
            else:
                (mine, error), theirs_ref = timed(command, args.runs), None
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
            over = " *" if mine and mine > args.target else ""
            shown_mine = f"{mine * 1000:.0f} ms{over}" if mine else "failed"
            shown_ref = f"{theirs_ref * 1000:.0f} ms {label}" if theirs_ref else "—"
            by_ref = f"{mine / theirs_ref:.1f}" if mine and theirs_ref else "—"
            shown_theirs = f"{theirs * 1000:.0f} ms" if theirs else ("failed" if posting else "—")
            print(f"{os.path.basename(document)[:44]:44} {size / 1024:>7.0f} K {shown_mine:>10} {shown_ref:>24} "
                  f"{by_ref:>6} {shown_theirs:>10} {ratio:>6}")
            if error:
                print(f"  explorer: {error[0][:200]}")
        print(f"* over the target of {args.target} s")
        if ratios:
            print(f"geometric mean of explorer / posting over {len(ratios)} documents both import: "
                  f"{statistics.geometric_mean(ratios):.2f}")


if __name__ == "__main__":
    main()
