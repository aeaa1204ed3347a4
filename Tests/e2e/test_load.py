"""`explorer load` end to end: the real binary against the real demo API."""
from __future__ import annotations

import json
import os
import pty
import select
import subprocess
import time

from conftest import LocalServer
from test_history import listed
from test_send import closed_port, one_sentence, run


def load(explorer_bin, tmp_path, demo, *args, **kwargs):
    return run(explorer_bin, tmp_path, "load", "--collection", str(demo.collection), *args, **kwargs)


def test_json_reports_every_request_and_the_distribution(explorer_bin, tmp_path, demo):
    result = load(explorer_bin, tmp_path, demo, "Users/Get user", "--env", "local", "-n", "60", "-c", "4", "--json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["endpoint"] == "Users/Get user" and report["environment"] == "local"
    assert report["requests"] == 60 and report["concurrency"] == 4
    assert report["statuses"] == {"200": 60}
    assert report["failures"] == 0 and report["errors"] == {}
    latency = report["latency"]
    assert 0 < latency["min"] <= latency["p50"] <= latency["p90"] <= latency["p99"] <= latency["p99.9"] <= latency["max"]
    assert sum(bucket["count"] for bucket in report["histogram"]) == 60
    assert report["requestsPerSecond"] > 0
    assert report["bytes"] == 60 * 154


def test_the_report_prints_what_hey_prints(explorer_bin, tmp_path, demo):
    result = load(explorer_bin, tmp_path, demo, "Users/Get user", "--env", "staging", "-n", "40", "-c", "8")
    assert result.returncode == 0, result.stderr
    out = result.stdout.decode()
    assert out.splitlines()[0].startswith("GET http://127.0.0.1:") and out.splitlines()[0].endswith(" (staging)")
    for text in ("Requests:     40 in ", "Requests/s:", "Latency (from each request's start to its last body byte):",
                 "  p50 ", "  p99.9 ", "Histogram:", "Status codes:", "  [200] 40 responses"):
        assert text in out, text
    assert result.stderr == ""  # no progress bar off a terminal


def test_the_history_keeps_one_summary_entry(explorer_bin, tmp_path, demo):
    result = load(explorer_bin, tmp_path, demo, "Users/Get user", "--env", "local", "-n", "30", "--json")
    assert result.returncode == 0, result.stderr
    rows = listed(explorer_bin, tmp_path)
    assert len(rows) == 1
    row = rows[0]
    assert row["id"] == json.loads(result.stdout)["historyId"]
    assert row["endpoint"] == "Users/Get user" and row["status"] == 200
    assert row["contentType"] == "application/vnd.explorer.load+json"
    shown = json.loads(run(explorer_bin, tmp_path, "history", "show", str(row["id"]), "--json").stdout)
    assert json.loads(shown["body"])["requests"] == 30


def test_a_duration_alone_sends_until_it_ends(explorer_bin, tmp_path, demo):
    result = load(explorer_bin, tmp_path, demo, "Users/Get user", "--env", "local", "-z", "700ms", "-c", "2", "--json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["requests"] > 2
    assert 0.7 <= report["seconds"] < 5


def test_a_rate_spaces_the_requests_and_reports_the_service_time(explorer_bin, tmp_path, demo):
    result = load(explorer_bin, tmp_path, demo, "Users/Get user", "--env", "local", "-n", "20", "-c", "2",
                  "--rate", "40", "--json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    # The 20th request is due 19/40 s after the first.
    assert report["seconds"] >= 0.47
    assert report["rate"] == 40
    assert report["serviceTime"]["p50"] <= report["latency"]["max"]


def test_failures_are_counted_by_kind_and_no_response_exits_1(explorer_bin, tmp_path):
    path = tmp_path / "closed.yaml"
    path.write_text(f"""name: Closed
environments:
  - name: nowhere
    base_url: http://127.0.0.1:{closed_port()}
endpoints:
  - name: Ping
    path: /ping
""")
    result = run(explorer_bin, tmp_path, "load", "Ping", "--collection", str(path), "-n", "5", "-c", "1", "--json")
    assert result.returncode == 1
    report = json.loads(result.stdout)
    assert report["errors"]["connection refused"]["count"] == 5
    assert report["responses"] == 0


def test_bad_options_exit_2_with_one_sentence(explorer_bin, tmp_path, demo):
    for args in (["-n", "0"], ["-c", "0"], ["-z", "soon"], ["--rate", "0"]):
        result = load(explorer_bin, tmp_path, demo, "Users/Get user", *args)
        assert result.returncode == 2, args
        assert one_sentence(result.stderr), (args, result.stderr)


def test_a_protected_environment_asks_before_a_non_get_load(explorer_bin, tmp_path, demo):
    result = load(explorer_bin, tmp_path, demo, "Users/Create user", "--env", "production", "-n", "5")
    assert result.returncode == 2
    assert "protected" in result.stderr and "--yes" in result.stderr
    assert not any("POST" in line for line in demo.lines)


def test_a_terminal_gets_a_live_progress_bar_on_stderr(explorer_bin, tmp_path, demo):
    controller, terminal = pty.openpty()
    process = subprocess.Popen(
        [str(explorer_bin), "load", "Users/Get user", "--collection", str(demo.collection), "--env", "local",
         "-z", "600ms", "-c", "2", "--no-history"],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=terminal,
        env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tmp_path), "LANG": "C.UTF-8"})
    os.close(terminal)
    seen = b""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        ready, _, _ = select.select([controller], [], [], 0.1)
        if ready:
            try:
                chunk = os.read(controller, 4096)
            except OSError:
                break
            if not chunk:
                break
            seen += chunk
        elif process.poll() is not None:
            break
    out = process.stdout.read().decode()
    process.wait(timeout=10)
    os.close(controller)
    assert process.returncode == 0
    text = seen.decode("utf-8", "replace")
    assert "\r\x1b[2K[" in text and "■" in text and "%" in text
    assert text.endswith("\r\x1b[2K")
    assert "Requests/s:" in out


def test_run_repeat_reports_each_endpoints_latency_distribution(explorer_bin, tmp_path, demo):
    result = run(explorer_bin, tmp_path, "run", "Users/Get user", "Posts/List posts", "--collection", str(demo.collection),
                 "--env", "local", "--repeat", "4", "--no-history")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.decode().splitlines()
    head = lines.index("Latency over 4 runs (ms)")
    assert lines[head + 1].split() == ["ENDPOINT", "min", "p50", "p90", "p99", "max"]
    for row, name in zip(lines[head + 2:head + 4], ["Users/Get user", "Posts/List posts"]):
        assert row.strip().startswith(name)
        values = [float(value) for value in row.strip()[len(name):].split()]
        assert len(values) == 5 and values == sorted(values) and values[0] > 0

    as_json = run(explorer_bin, tmp_path, "run", "Users/Get user", "--collection", str(demo.collection), "--env", "local",
                  "--repeat", "3", "--no-history", "--json")
    latency = json.loads(as_json.stdout)["latency"]["Users/Get user"]
    assert latency["count"] == 3 and latency["min"] <= latency["p50"] <= latency["p99"] <= latency["max"]

    once = run(explorer_bin, tmp_path, "run", "Users/Get user", "--collection", str(demo.collection), "--env", "local", "--no-history")
    assert "Latency" not in once.stdout.decode(), "one run has no distribution"


def test_disable_keepalive_opens_a_connection_for_every_request(explorer_bin, tmp_path):
    # A server that keeps connections open (HTTP/1.1) and notes each one it accepts.
    server = LocalServer(lambda method, path: (200, {"Content-Type": "application/json"}, b'{"ok": true}'), keep_alive=True)
    try:
        path = tmp_path / "kept.yaml"
        path.write_text(f"""name: Kept
environments:
  - name: here
    base_url: {server.url}
endpoints:
  - name: Ping
    path: /ping
""")
        kept = run(explorer_bin, tmp_path, "load", "Ping", "--collection", str(path), "-n", "8", "-c", "1", "--json", "--no-history")
        assert kept.returncode == 0, kept.stderr
        assert json.loads(kept.stdout)["keepAlive"] is True
        assert len(server.connections) == 1
        server.connections.clear()
        fresh = run(explorer_bin, tmp_path, "load", "Ping", "--collection", str(path), "-n", "8", "-c", "1", "--json", "--no-history",
                    "--disable-keepalive")
        assert fresh.returncode == 0, fresh.stderr
        report = json.loads(fresh.stdout)
        assert report["keepAlive"] is False and report["statuses"] == {"200": 8}
        assert len(server.connections) == 8
        text = run(explorer_bin, tmp_path, "load", "Ping", "--collection", str(path), "-n", "2", "-c", "1", "--no-history",
                   "--disable-keepalive")
        assert b"2 in " in text.stdout and b"1 at once, a new connection for each" in text.stdout
    finally:
        server.close()
