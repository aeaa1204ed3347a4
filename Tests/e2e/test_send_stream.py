"""`explorer send` with bodies that are streams: live events, endless and huge bodies, a
compression bomb, a total deadline separate from the idle timeout, and the body limit."""
from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from conftest import poll
from test_send import one_sentence, run, send


def streams_collection(tmp_path: Path, demo) -> Path:
    """A collection with the demo's stream routes, some with query parameters."""
    collection = tmp_path / "streams.yaml"
    collection.write_text(
        "name: streams\n"
        "environments:\n"
        f"  - name: local\n    base_url: {demo.urls['local']}\n"
        "endpoints:\n"
        "  - name: Events\n    path: /stream/events\n    query: { count: \"3\", every: \"50\" }\n"
        "  - name: Live events\n    path: /stream/events\n    query: { every: \"100\" }\n"
        "  - name: Endless\n    path: /stream/endless\n"
        "  - name: Bomb\n    path: /stream/bomb\n"
        "  - name: Drip\n    path: /stream/ndjson\n    query: { count: \"4\", every: \"600\" }\n"
        "  - name: Big\n    path: /stream/bytes\n    query: { size: \"104857600\" }\n"
    )
    return collection


def environment(tmp_path: Path) -> dict[str, str]:
    return {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(tmp_path),
        "XDG_STATE_HOME": str(tmp_path / "state"),
        "LANG": "C.UTF-8",
    }


# The peak RSS wait4 reports for a child starts from its parent's at the fork (Linux keeps the
# forked copy's high-water mark across exec), and pytest itself grows past 100 MB over the
# suite. A small Python launcher forks the explorer instead, and writes the explorer's own peak
# (kB) to a file.
LAUNCHER = """
import os, sys
pid = os.fork()
if pid == 0:
    os.execv(sys.argv[2], sys.argv[2:])
_, status, usage = os.wait4(pid, 0)
with open(sys.argv[1], "w") as out:
    out.write(str(usage.ru_maxrss))
code = os.waitstatus_to_exitcode(status)
sys.exit(code if code >= 0 else 128 - code)
"""


def measured(command: list[str], rss_file: Path) -> list[str]:
    """`command` run through the launcher, its peak RSS written to `rss_file`."""
    return [sys.executable, "-c", LAUNCHER, str(rss_file), *command]


def wait_with_peak_rss(process: subprocess.Popen, rss_file: Path) -> tuple[int, int]:
    """Waits for the launched process; returns its exit code and its own peak RSS in kB."""
    process.wait(timeout=120)
    return process.returncode, int(rss_file.read_text())


def test_an_endless_body_stops_at_max_time_with_a_sentence_and_flat_memory(explorer_bin, tmp_path, demo):
    collection = streams_collection(tmp_path, demo)
    rss = tmp_path / "peak-rss"
    process = subprocess.Popen(
        measured([str(explorer_bin), "send", "--collection", str(collection), "Endless", "--max-time", "3", "--timeout", "30"], rss),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=environment(tmp_path), cwd=str(tmp_path))
    received = 0
    while chunk := process.stdout.read1(1 << 20):
        received += len(chunk)
    code, peak = wait_with_peak_rss(process, rss)
    stderr = process.stderr.read().decode()
    assert code == 1
    assert one_sentence(stderr.replace(". Raise", "; raise")), stderr
    assert "--max-time 3 s" in stderr
    assert received > 10 << 20, "the body was streamed to stdout while it arrived"
    assert peak < 100 * 1024, f"peak RSS {peak} kB"


def test_the_body_limit_stops_a_body_and_names_the_flag(explorer_bin, tmp_path, demo):
    collection = streams_collection(tmp_path, demo)
    result = run(explorer_bin, tmp_path, "send", "--collection", str(collection), "Endless", "--max-body", "5M")
    assert result.returncode == 1
    assert "the body limit of 5242880 bytes (5 MiB)" in result.stderr
    assert "--max-body" in result.stderr
    assert len(result.stdout) <= 5 << 20


def test_a_gzip_bomb_is_not_inflated(explorer_bin, tmp_path, demo):
    collection = streams_collection(tmp_path, demo)
    process = subprocess.Popen(
        [str(explorer_bin), "send", "--collection", str(collection), "Bomb"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=environment(tmp_path), cwd=str(tmp_path))
    stdout, stderr = process.communicate(timeout=60)
    assert process.returncode == 1
    assert "decompression ratio limit of 200:1" in stderr.decode()
    assert len(stdout) < 64 << 20


def test_a_stalled_stream_stops_at_the_idle_timeout_not_the_total_deadline(explorer_bin, tmp_path, demo):
    collection = streams_collection(tmp_path, demo)
    started = time.monotonic()
    result = run(explorer_bin, tmp_path, "send", "--collection", str(collection), "Drip", "--timeout", "0.3", "--max-time", "60")
    assert result.returncode == 1
    assert "--timeout 0.3 s" in result.stderr
    assert result.stdout.startswith(b'{"n": 1')
    assert time.monotonic() - started < 30


def test_server_sent_events_print_one_block_each_as_they_arrive(explorer_bin, tmp_path, demo):
    collection = streams_collection(tmp_path, demo)
    process = subprocess.Popen(
        [str(explorer_bin), "send", "--collection", str(collection), "Live events", "--stream", "--no-history"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=environment(tmp_path), cwd=str(tmp_path))
    try:
        lines: list[str] = []
        # The stream never ends: the first events are printed while it is still open.
        while sum(1 for line in lines if " tick id=" in line or " alert id=" in line) < 3:
            line = process.stdout.readline().decode()
            assert line, process.stderr.read().decode()
            lines.append(line)
        assert process.poll() is None
        text = "".join(lines)
        assert " tick id=1\n" in text and " alert id=3\n" in text
        assert '"n": 2' in text
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_piped_events_without_stream_are_the_raw_bytes(explorer_bin, tmp_path, demo):
    collection = streams_collection(tmp_path, demo)
    result = run(explorer_bin, tmp_path, "send", "--collection", str(collection), "Events", "--include")
    assert result.returncode == 0, result.stderr
    head, _, body = result.stdout.partition(b"\n\n")
    assert b"text/event-stream" in head
    assert body.count(b"\nid: ") == 3
    assert b"data: {\"n\": 3,\ndata: " in body


def test_a_large_body_piped_keeps_memory_flat_and_history_keeps_a_marked_copy(explorer_bin, tmp_path, demo):
    collection = streams_collection(tmp_path, demo)
    with open(tmp_path / "out.bin", "wb") as sink:
        rss = tmp_path / "peak-rss"
        process = subprocess.Popen(
            measured([str(explorer_bin), "send", "--collection", str(collection), "Big"], rss),
            stdout=sink, stderr=subprocess.PIPE, env=environment(tmp_path), cwd=str(tmp_path))
        code, peak = wait_with_peak_rss(process, rss)
    assert code == 0, process.stderr.read()
    assert (tmp_path / "out.bin").stat().st_size == 104857600
    assert peak < 100 * 1024, f"peak RSS {peak} kB"
    shown = run(explorer_bin, tmp_path, "history", "show", "1", "--json")
    assert shown.returncode == 0, shown.stderr
    import json
    exchange = json.loads(shown.stdout)
    assert exchange["bodySize"] == 104857600
    assert exchange["bodyTruncated"] is True


def test_a_reader_that_stops_early_ends_the_transfer_with_a_sentence(explorer_bin, tmp_path, demo):
    collection = streams_collection(tmp_path, demo)
    process = subprocess.Popen(
        [str(explorer_bin), "send", "--collection", str(collection), "Endless", "--no-history"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=environment(tmp_path), cwd=str(tmp_path))
    assert process.stdout.read(100)
    process.stdout.close()  # as `| head -c 100` does
    _, stderr = process.communicate(timeout=30)
    assert process.returncode == 1
    assert "standard output was closed" in stderr.decode()
    assert "Fatal error" not in stderr.decode()
