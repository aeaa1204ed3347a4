"""Raw control characters never reach the terminal from what a file or a server brings: each
output below is fed a name or a body holding ESC, BEL and the C1 control CSI (U+009B, which a
terminal reads as ESC [), and the bytes it writes hold none of them raw. (A body piped with
`send` is written byte for byte: that is its point, and it is not checked here.)"""
from __future__ import annotations

import json
import os
import pty
import re
import select
import subprocess
import time
from pathlib import Path

from conftest import LocalServer, poll
from test_mock import Mock, curl
from test_send import run

HOSTILE = "red\x1b[31m bell\x07 csi\u009b2J"
# The same in YAML's double-quoted escapes.
HOSTILE_YAML = r"red\e[31m bell\a csi\x9b2J"
RAW = (b"\x1b", b"\x07", "\u009b".encode())


def assert_no_raw_controls(output: bytes, what: str) -> None:
    for raw in RAW:
        assert raw not in output, f"{what} wrote {raw!r} raw: {output[:2000]!r}"


def document(tmp_path: Path) -> Path:
    path = tmp_path / "openapi.json"
    path.write_text(json.dumps({
        "openapi": "3.0.3",
        "info": {"title": "Hostile", "version": "1"},
        "paths": {"/items": {"get": {
            "operationId": "list" + HOSTILE,
            "responses": {"200": {"description": "ok", "content": {"application/json": {
                "examples": {"first" + HOSTILE: {"value": {"ok": True}}}}}}},
        }}},
    }))
    return path


def test_the_mocks_access_log_escapes_the_names_of_examples(explorer_bin, tmp_path):
    document(tmp_path)
    collection = tmp_path / "api.yaml"
    collection.write_text("name: Hostile\nopenapi: openapi.json\nenvironments:\n  - name: local\n    base_url: http://127.0.0.1:9\n")
    mock = Mock(explorer_bin, tmp_path, str(collection))
    try:
        assert curl(mock.url + "/items")[0] == 200
        poll(lambda: any("GET /items" in line for line in mock.lines), message="the access log's line")
    finally:
        mock.stop()
    log = "".join(mock.lines)
    assert "example first" in log, log
    assert_no_raw_controls(log.encode(), "explorer mock's log")


def test_openapi_refresh_escapes_operation_ids(explorer_bin, tmp_path):
    document(tmp_path)
    collection = tmp_path / "api.yaml"
    collection.write_text("name: Hostile\nopenapi: openapi.json\nenvironments:\n  - name: local\n    base_url: http://127.0.0.1:9\n"
                          "endpoints:\n  - name: Other\n    path: /other\n    operation: other\n")
    result = run(explorer_bin, tmp_path, "openapi", "refresh", "--collection", str(collection))
    assert result.returncode == 3, result.stderr
    assert b"list" in result.stdout, result.stdout
    assert_no_raw_controls(result.stdout, "openapi refresh")
    as_json = run(explorer_bin, tmp_path, "openapi", "refresh", "--json", "--collection", str(collection))
    assert_no_raw_controls(as_json.stdout, "openapi refresh --json")
    assert json.loads(as_json.stdout)["added"][0]["operation"] == "list" + HOSTILE


def on_a_terminal(command: list[str], cwd: Path, env: dict[str, str]) -> bytes:
    """What `command` writes to a pseudo-terminal, until it exits."""
    master, slave = pty.openpty()
    process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=slave, stderr=slave, cwd=str(cwd), env=env)
    os.close(slave)
    output = b""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        ready, _, _ = select.select([master], [], [], 0.5)
        if ready:
            try:
                chunk = os.read(master, 65536)
            except OSError:
                break
            if not chunk:
                break
            output += chunk
        elif process.poll() is not None:
            break
    process.wait(timeout=10)
    os.close(master)
    return output


def test_send_json_on_a_terminal_escapes_c1_controls(explorer_bin, tmp_path):
    body = json.dumps({"note": HOSTILE}, ensure_ascii=False).encode()
    server = LocalServer(lambda method, path: (200, {"Content-Type": "application/json", "X-Note": "a\u009bb".encode().decode("latin-1")}, body))
    try:
        (tmp_path / "explorer.yaml").write_text(f"name: T\nenvironments:\n  - name: local\n    base_url: {server.url}\n    proxy: none\n"
                                                "endpoints:\n  - name: Note\n    path: /note\n")
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tmp_path), "XDG_STATE_HOME": str(tmp_path / "state"),
               "LANG": "C.UTF-8", "TERM": "xterm"}
        output = on_a_terminal([str(explorer_bin), "send", "--json", "Note"], tmp_path, env)
    finally:
        server.close()
    assert b'"status":200' in output, output
    assert_no_raw_controls(output, "send --json on a terminal")
    start = output.index(b"{")
    exchange = json.loads(output[start:].decode().strip())
    assert json.loads(exchange["body"])["note"] == HOSTILE


def test_history_piped_escapes_environment_names(explorer_bin, tmp_path):
    server = LocalServer(lambda method, path: (200, {"Content-Type": "text/plain"}, b"ok"))
    try:
        collection = tmp_path / "explorer.yaml"
        collection.write_text(f'name: T\nenvironments:\n  - name: "{HOSTILE_YAML}"\n    base_url: {server.url}\n    proxy: none\n'
                              "endpoints:\n  - name: Ping\n    path: /ping\n")
        sent = run(explorer_bin, tmp_path, "send", "Ping", "--collection", str(collection))
        assert sent.returncode == 0, sent.stderr
    finally:
        server.close()
    listed = run(explorer_bin, tmp_path, "history", "--collection", str(collection))
    assert listed.returncode == 0, listed.stderr
    assert b"GET" in listed.stdout, listed.stdout
    assert_no_raw_controls(listed.stdout, "history piped")
    shown = run(explorer_bin, tmp_path, "history", "show", "1")
    assert shown.returncode == 0, shown.stderr
    assert b"Exchange #1" in shown.stdout, shown.stdout
    assert_no_raw_controls(shown.stdout, "history show piped")
    as_json = run(explorer_bin, tmp_path, "history", "--json", "--collection", str(collection))
    assert_no_raw_controls(as_json.stdout, "history --json")
    assert json.loads(as_json.stdout)[0]["environment"] == HOSTILE


def test_exports_write_no_body_control_character_raw(explorer_bin, tmp_path):
    collection = tmp_path / "explorer.yaml"
    collection.write_text(f'name: T\nenvironments:\n  - name: local\n    base_url: http://127.0.0.1:9\n'
                          f'endpoints:\n  - name: Raw\n    method: POST\n    path: /raw\n    body: "{HOSTILE_YAML}"\n'
                          f'  - name: JSON\n    method: POST\n    path: /json\n    json: {{ note: "{HOSTILE_YAML}" }}\n')
    for format in ("http", "hurl"):
        result = run(explorer_bin, tmp_path, "export", format, "--collection", str(collection))
        assert result.returncode == 0, result.stderr
        assert b"/raw" in result.stdout and b"/json" in result.stdout
        assert_no_raw_controls(result.stdout, f"export {format}")
    # Hurl reads the body back as it was: explorer's own Hurl import does.
    hurl = run(explorer_bin, tmp_path, "export", "hurl", "--collection", str(collection))
    (tmp_path / "back.hurl").write_bytes(hurl.stdout)
    imported = run(explorer_bin, tmp_path, "import", "hurl", str(tmp_path / "back.hurl"), "--into", str(tmp_path / "back.yaml"))
    assert imported.returncode == 0, imported.stderr
    assert re.search(r'body: "red\\e\[31m bell\\a csi\\x9B2J"', (tmp_path / "back.yaml").read_text(), re.I), (tmp_path / "back.yaml").read_text()
