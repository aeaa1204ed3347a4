"""Evaluation within limits (issue 51, finding 8): a template, a JSONPath query and a regular
expression that ask for exponential work stop at their limit, promptly, with one sentence
naming it and the environment variable that raises it; never a hang, never a silent answer."""
from __future__ import annotations

import time
from pathlib import Path

from conftest import LocalServer
from test_send import run


def chain(levels: int) -> str:
    """Collection variables where v0 uses v1 twice, v1 uses v2 twice, … (2^levels expansions)."""
    lines = [f'  v{i}: "{{{{v{i + 1}}}}}{{{{v{i + 1}}}}}"' for i in range(levels)]
    return "\n".join(lines + [f"  v{levels}: x"])


def collection(tmp_path: Path, base_url: str) -> Path:
    path = tmp_path / "limits.yaml"
    path.write_text(f"""name: limits
variables:
{chain(40)}
environments:
  - name: local
    base_url: {base_url}
endpoints:
  - name: Bomb
    path: /plain
    headers:
      X-Bomb: "{{{{v0}}}}"
  - name: Backtracking
    path: /plain
    assert:
      - body matches "a*a*a*a*a*b"
  - name: Gives up
    path: /long
    assert:
      - body not matches "(a+)+$"
  - name: Deep
    path: /deep
""")
    return path


def answer(method: str, path: str):
    if path == "/deep":
        return 200, {"Content-Type": "application/json"}, b"[" * 400 + b"]" * 400
    if path == "/long":
        return 200, {"Content-Type": "text/plain"}, b"a" * 1_000_000 + b"!"
    return 200, {"Content-Type": "text/plain"}, b"a" * 200


def test_forty_levels_of_variables_end_promptly_with_the_step_limit(explorer_bin, tmp_path):
    server = LocalServer(answer)
    try:
        started = time.monotonic()
        result = run(explorer_bin, tmp_path, "send", "--collection", str(collection(tmp_path, server.url)), "Bomb")
        elapsed = time.monotonic() - started
        assert result.returncode == 2, result.stderr
        assert '{{v0}} in the header X-Bomb of endpoint "Bomb" cannot be evaluated: expanding it took more than 100000 steps' in result.stderr
        assert "set EXPLORER_MAX_TEMPLATE_STEPS to a larger value to allow more." in result.stderr
        assert server.requests == [], "nothing is sent"
        assert elapsed < 20, f"took {elapsed:.1f} s"

        lowered = run(explorer_bin, tmp_path, "send", "--collection", str(tmp_path / "limits.yaml"), "Bomb",
                      env={"EXPLORER_MAX_TEMPLATE_STEPS": "1000"})
        assert "more than 1000 steps" in lowered.stderr, lowered.stderr
    finally:
        server.close()


def test_a_catastrophic_regex_assertion_fails_at_the_time_limit(explorer_bin, tmp_path):
    server = LocalServer(answer)
    try:
        path = collection(tmp_path, server.url)
        started = time.monotonic()
        result = run(explorer_bin, tmp_path, "send", "--collection", str(path), "Backtracking", env={"EXPLORER_REGEX_TIMEOUT": "1"})
        elapsed = time.monotonic() - started
        assert result.returncode == 3, result.stderr
        assert ('✗ body matches "a*a*a*a*a*b": the regular expression "a*a*a*a*a*b" ran for more than 1 second on a text of '
                "200 characters without an answer; set EXPLORER_REGEX_TIMEOUT to a larger value to allow more") in result.stderr
        assert elapsed < 20, f"took {elapsed:.1f} s"
    finally:
        server.close()


def test_not_matches_does_not_pass_when_the_regex_engine_gives_up(explorer_bin, tmp_path):
    server = LocalServer(answer)
    try:
        result = run(explorer_bin, tmp_path, "send", "--collection", str(collection(tmp_path, server.url)), "Gives up")
        assert result.returncode == 3, result.stderr
        assert '✗ body not matches "(a+)+$": the regular expression "(a+)+$" gave up on a text of 1000001 characters' in result.stderr
        assert "this limit cannot be raised: write the pattern without nested repetition" in result.stderr
    finally:
        server.close()


def test_nested_descents_on_a_small_body_stop_at_the_node_limit(explorer_bin, tmp_path):
    server = LocalServer(answer)
    try:
        path = collection(tmp_path, server.url)
        result = run(explorer_bin, tmp_path, "send", "--collection", str(path), "Deep", "--filter", "$..*..*..*",
                     env={"EXPLORER_MAX_QUERY_NODES": "100000"})
        assert result.returncode == 1, result.stderr
        assert ("The JSONPath $..*..*..* visited and selected more than 100000 nodes; "
                "set EXPLORER_MAX_QUERY_NODES to a larger value to allow more.") in result.stderr
        assert result.stdout == b""

        timed = run(explorer_bin, tmp_path, "send", "--collection", str(path), "Deep", "--filter", "$..*..*..*..*",
                    env={"EXPLORER_QUERY_TIMEOUT": "0.5", "EXPLORER_MAX_QUERY_NODES": "1000000000"})
        assert "The JSONPath $..*..*..*..* ran for more than 0.5 seconds; set EXPLORER_QUERY_TIMEOUT" in timed.stderr, timed.stderr
    finally:
        server.close()
