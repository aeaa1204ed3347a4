"""`explorer send` end to end: the real binary against the real demo API, every exit code."""
from __future__ import annotations

import base64
import json
import os
import pty
import socket
import subprocess
from pathlib import Path

import pytest


def run(explorer_bin: Path, tmp_path: Path, *args: str, env: dict[str, str] | None = None,
        cwd: Path | None = None, stdin=subprocess.DEVNULL) -> subprocess.CompletedProcess:
    """Runs the binary with its history in tmp_path/state; returns bytes stdout and text stderr."""
    environment = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(tmp_path),
        "XDG_STATE_HOME": str(tmp_path / "state"),
        "LANG": "C.UTF-8",
    }
    environment.update(env or {})
    result = subprocess.run(
        [str(explorer_bin), *args], capture_output=True, env=environment,
        cwd=str(cwd or tmp_path), stdin=stdin, timeout=60,
    )
    result.stderr = result.stderr.decode("utf-8", "replace")
    return result


def send(explorer_bin, tmp_path, demo, *args, **kwargs):
    return run(explorer_bin, tmp_path, "send", "--collection", str(demo.collection), *args, **kwargs)


def one_sentence(stderr: str) -> bool:
    lines = [line for line in stderr.splitlines() if line.strip()]
    return len(lines) == 1 and lines[0].rstrip().endswith((".", "?", "!"))


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


# MARK: - 2xx and output formats

def test_a_2xx_prints_the_raw_body_when_piped_and_exits_0(explorer_bin, tmp_path, demo):
    result = send(explorer_bin, tmp_path, demo, "Users/List users", "--env", "local")
    assert result.returncode == 0, result.stderr
    page = json.loads(result.stdout)
    assert page["items"][0]["id"] == 1
    assert result.stderr == ""


def test_json_prints_one_object_with_the_documented_fields(explorer_bin, tmp_path, demo):
    result = send(explorer_bin, tmp_path, demo, "List users", "--env", "staging", "--json")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.decode().strip().splitlines()
    assert len(lines) == 1
    exchange = json.loads(lines[0])
    for key in ["method", "url", "environment", "status", "reason", "headers", "body", "timings", "historyId"]:
        assert key in exchange, key
    assert exchange["method"] == "GET"
    assert exchange["url"].startswith(demo.url("staging", "/users?"))
    assert exchange["environment"] == "staging"
    assert exchange["status"] == 200 and exchange["reason"] == "OK"
    assert any(name.lower() == "content-type" for name in exchange["headers"])
    assert json.loads(exchange["body"])["items"]
    assert exchange["timings"]["total"] > 0
    assert isinstance(exchange["historyId"], int)


def test_include_adds_the_status_line_and_headers(explorer_bin, tmp_path, demo):
    result = send(explorer_bin, tmp_path, demo, "Users/List users", "--env", "local", "--include")
    assert result.returncode == 0, result.stderr
    head, _, body = result.stdout.partition(b"\n\n")
    lines = head.decode().splitlines()
    assert lines[0] == "HTTP/1.1 200 OK"
    assert any(line.lower().startswith("content-type: application/json") for line in lines[1:])
    assert json.loads(body)["items"]


def test_a_binary_body_is_base64_in_json(explorer_bin, tmp_path, demo):
    result = send(explorer_bin, tmp_path, demo, "Content/Binary image", "--env", "local", "--json")
    assert result.returncode == 0, result.stderr
    exchange = json.loads(result.stdout)
    assert exchange["bodyEncoding"] == "base64"
    assert base64.b64decode(exchange["body"]).startswith(b"\x89PNG")


def test_a_binary_body_is_piped_byte_for_byte(explorer_bin, tmp_path, demo):
    result = send(explorer_bin, tmp_path, demo, "Content/Binary image", "--env", "local")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(b"\x89PNG\r\n\x1a\n")


def test_var_overrides_a_variable(explorer_bin, tmp_path, demo):
    result = send(explorer_bin, tmp_path, demo, "Users/Get user", "--env", "local", "--var", "user_id=3")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["id"] == 3


# MARK: - Exit codes

def test_a_4xx_exits_0_without_check_status(explorer_bin, tmp_path, demo):
    result = send(explorer_bin, tmp_path, demo, "Users/Missing user (404)", "--env", "local")
    assert result.returncode == 0, result.stderr
    assert b"404" in result.stdout or b"Not Found" in result.stdout


def test_a_4xx_exits_4_with_check_status_and_still_prints_the_body(explorer_bin, tmp_path, demo):
    result = send(explorer_bin, tmp_path, demo, "Users/Missing user (404)", "--env", "local", "--check-status")
    assert result.returncode == 4
    problem = json.loads(result.stdout)
    assert problem["status"] == 404
    assert one_sentence(result.stderr), result.stderr
    assert "404" in result.stderr


def test_a_429_is_a_4xx(explorer_bin, tmp_path, demo):
    result = send(explorer_bin, tmp_path, demo, "Errors/Rate limited (429)", "--env", "local", "--check-status")
    assert result.returncode == 4


def test_a_5xx_exits_5_with_check_status_and_still_prints_the_body(explorer_bin, tmp_path, demo):
    result = send(explorer_bin, tmp_path, demo, "Errors/Server error (500 HTML)", "--env", "local", "--check-status")
    assert result.returncode == 5
    assert b"<html" in result.stdout.lower()
    assert one_sentence(result.stderr), result.stderr


def test_a_redirect_is_followed_and_exits_0_with_check_status(explorer_bin, tmp_path, demo):
    result = send(explorer_bin, tmp_path, demo, "Content/Redirect chain", "--env", "local", "--check-status", "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["status"] == 200


def test_a_refused_connection_exits_1_with_one_sentence(explorer_bin, tmp_path):
    collection = tmp_path / "closed.yaml"
    collection.write_text(
        "name: closed\n"
        "environments:\n"
        f"  - name: nowhere\n    base_url: http://127.0.0.1:{closed_port()}/v1\n"
        "endpoints:\n  - name: Ping\n    path: /ping\n"
    )
    result = run(explorer_bin, tmp_path, "send", "Ping", "--collection", str(collection))
    assert result.returncode == 1
    assert result.stdout == b""
    assert one_sentence(result.stderr), result.stderr


def test_a_timeout_exits_1(explorer_bin, tmp_path, demo):
    result = send(explorer_bin, tmp_path, demo, "Content/Slow response", "--env", "local", "--timeout", "0.3")
    assert result.returncode == 1
    assert one_sentence(result.stderr), result.stderr


def test_an_unknown_endpoint_exits_2_with_a_suggestion(explorer_bin, tmp_path, demo):
    result = send(explorer_bin, tmp_path, demo, "Users/List usrs", "--env", "local")
    assert result.returncode == 2
    assert one_sentence(result.stderr), result.stderr
    assert "List users" in result.stderr


def test_an_unknown_environment_exits_2(explorer_bin, tmp_path, demo):
    result = send(explorer_bin, tmp_path, demo, "Users/List users", "--env", "prod")
    assert result.returncode == 2
    assert one_sentence(result.stderr), result.stderr


def test_a_malformed_var_exits_2(explorer_bin, tmp_path, demo):
    result = send(explorer_bin, tmp_path, demo, "Users/List users", "--var", "no-equals-sign")
    assert result.returncode == 2
    assert one_sentence(result.stderr), result.stderr


def test_a_broken_collection_exits_2(explorer_bin, tmp_path):
    broken = tmp_path / "broken.yaml"
    broken.write_text("environments: [\n")
    result = run(explorer_bin, tmp_path, "send", "Anything", "--collection", str(broken))
    assert result.returncode == 2
    assert result.stderr.strip()


def test_no_collection_anywhere_exits_2(explorer_bin, tmp_path):
    result = run(explorer_bin, tmp_path, "send", "Anything")
    assert result.returncode == 2
    assert one_sentence(result.stderr), result.stderr


# MARK: - Collection lookup

def test_explorer_yaml_in_the_current_folder_is_found(explorer_bin, tmp_path, demo):
    folder = tmp_path / "project"
    folder.mkdir()
    (folder / "explorer.yaml").write_text(demo.collection.read_text())
    result = run(explorer_bin, tmp_path, "send", "Users/List users", cwd=folder)
    assert result.returncode == 0, result.stderr


def test_explorer_collection_variable_is_the_last_resort(explorer_bin, tmp_path, demo):
    result = run(explorer_bin, tmp_path, "send", "Users/List users", env={"EXPLORER_COLLECTION": str(demo.collection)})
    assert result.returncode == 0, result.stderr


# MARK: - Protected environments

def test_a_protected_environment_refuses_a_post_from_a_script_without_yes(explorer_bin, tmp_path, demo):
    result = send(explorer_bin, tmp_path, demo, "Users/Create user", "--env", "production")
    assert result.returncode == 2
    assert one_sentence(result.stderr), result.stderr
    assert "--yes" in result.stderr


def test_a_protected_environment_sends_a_post_with_yes(explorer_bin, tmp_path, demo):
    result = send(explorer_bin, tmp_path, demo, "Users/Create user", "--env", "production", "--yes", "--check-status")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["name"] == "Ada Lovelace"


def test_a_protected_environment_lets_a_get_through(explorer_bin, tmp_path, demo):
    result = send(explorer_bin, tmp_path, demo, "Users/List users", "--env", "production")
    assert result.returncode == 0, result.stderr


# MARK: - History

def test_no_history_keeps_the_exchange_out_of_the_history(explorer_bin, tmp_path, demo):
    result = send(explorer_bin, tmp_path, demo, "Users/List users", "--json", "--no-history")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["historyId"] is None
    listed = run(explorer_bin, tmp_path, "history", "--json")
    assert json.loads(listed.stdout) == []


def test_a_history_file_that_cannot_be_written_never_fails_the_request(explorer_bin, tmp_path, demo):
    (tmp_path / "state").mkdir()
    (tmp_path / "state" / "explorer").write_text("a file where the history folder should be")
    result = send(explorer_bin, tmp_path, demo, "Users/List users", "--json")
    assert result.returncode == 0
    assert json.loads(result.stdout)["status"] == 200
    assert one_sentence(result.stderr), result.stderr
    assert "History is off" in result.stderr


def test_a_corrupt_history_file_is_moved_aside_and_a_new_one_started(explorer_bin, tmp_path, demo):
    folder = tmp_path / "state" / "explorer"
    folder.mkdir(parents=True)
    (folder / "history.sqlite").write_bytes(b"definitely not sqlite " * 500)
    result = send(explorer_bin, tmp_path, demo, "Users/List users", "--json")
    assert result.returncode == 0, result.stderr
    assert "moved to" in result.stderr and "history.sqlite.corrupt-" in result.stderr
    assert len(list(folder.glob("history.sqlite.corrupt-*"))) == 1
    assert json.loads(result.stdout)["historyId"] == 1


def test_secrets_never_reach_the_history_file(explorer_bin, tmp_path, demo):
    result = send(explorer_bin, tmp_path, demo, "Auth/Me with token", "--env", "production", "--json", "--check-status")
    assert result.returncode == 0, result.stderr
    history_id = json.loads(result.stdout)["historyId"]
    shown = json.loads(run(explorer_bin, tmp_path, "history", "show", str(history_id), "--json").stdout)
    assert shown["request"]["headers"]["Authorization"] == "Bearer ••••••"
    folder = tmp_path / "state" / "explorer"
    raw = b"".join(path.read_bytes() for path in folder.iterdir() if path.name.startswith("history.sqlite"))
    assert b"demo-token" not in raw


# MARK: - On a terminal

def test_on_a_terminal_a_json_body_is_pretty_printed(explorer_bin, demo, screen):
    pane = screen([str(explorer_bin), "send", "--collection", str(demo.collection), "Users/Get user", "--env", "local"])
    text = pane.wait_for("[exited 0]")
    assert "\n  \"id\": 1," in text


def test_on_a_terminal_escape_sequences_in_a_body_are_shown_escaped(explorer_bin, demo, screen):
    pane = screen([str(explorer_bin), "send", "--collection", str(demo.collection), "Content/Escape sequences", "--env", "local"])
    text = pane.wait_for("[exited 0]")
    assert "\\e[31mred?\\e[0m" in text
    assert "nul:\\x00 end" in text


def test_on_a_terminal_a_protected_post_asks_first_and_no_means_no(explorer_bin, demo, screen):
    pane = screen([str(explorer_bin), "send", "--collection", str(demo.collection), "Users/Create user", "--env", "production"])
    pane.wait_for("[y/N]")
    pane.type("n")
    pane.keys("Enter")
    text = pane.wait_for("[exited 1]")
    assert "Not sent" in text


def test_on_a_terminal_a_protected_post_is_sent_after_yes(explorer_bin, demo, screen):
    pane = screen([str(explorer_bin), "send", "--collection", str(demo.collection), "Users/Create user", "--env", "production"])
    pane.wait_for("[y/N]")
    pane.type("y")
    pane.keys("Enter")
    text = pane.wait_for("[exited 0]")
    assert "Ada Lovelace" in text


def test_a_question_is_answered_when_standard_error_is_closed(explorer_bin, tmp_path):
    """`import --into` asks before it replaces an endpoint; with standard error closed (`2>&-`)
    the question cannot be shown, but the answer typed is still read (before, the write of the
    question ended the process with Foundation's fatal error)."""
    into = tmp_path / "api.yaml"
    first = run(explorer_bin, tmp_path, "import", "curl", "curl https://api.example.com/users", "--into", str(into), "--name", "Users")
    assert first.returncode == 0, first.stderr
    controller, terminal = pty.openpty()
    try:
        os.write(controller, b"y\n")
        result = subprocess.run(
            [str(explorer_bin), "import", "curl", "curl https://api.example.com/v2/users", "--into", str(into), "--name", "Users"],
            stdin=terminal, stdout=subprocess.PIPE, preexec_fn=lambda: os.close(2), timeout=60,
            env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tmp_path), "LANG": "C.UTF-8"})
    finally:
        os.close(terminal)
        os.close(controller)
    assert result.returncode == 0
    assert "/v2/users" in into.read_text()
