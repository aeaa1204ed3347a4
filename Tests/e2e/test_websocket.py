"""`explorer send` on the demo's WebSocket endpoints: messages sent and printed as they arrive,
JSON lines, saved messages, --count, --wait, server closes and failed upgrades, history."""
from __future__ import annotations

import json
import os
import signal
import subprocess
from pathlib import Path

from conftest import poll
from test_history import listed, history
from test_send import run, send


def ws_collection(tmp_path: Path, demo) -> Path:
    """The demo's WebSocket routes with the demo's token, plus a ws:// base URL environment."""
    local = demo.urls["local"]
    collection = tmp_path / "ws.yaml"
    collection.write_text(
        "name: sockets\n"
        "variables: { token: demo-token, word: templated }\n"
        "environments:\n"
        f"  - name: local\n    base_url: {local}\n"
        f"  - name: socket\n    base_url: {local.replace('http://', 'ws://')}\n"
        "endpoints:\n"
        "  - name: Echo\n    path: /ws/echo\n    websocket: true\n    headers: { X-Trace: abc }\n"
        "    messages:\n      - name: Greeting\n        text: 'hello {{word}}'\n      - name: Order\n        json: { op: buy, qty: 2 }\n"
        "  - name: Ticks\n    path: /ws/ticks\n    websocket: true\n    query: { interval_ms: \"50\", count: \"3\" }\n"
        "  - name: Secure\n    path: /ws/secure\n    websocket: true\n    headers: { Authorization: 'Bearer {{token}}' }\n"
        "  - name: Wrong token\n    path: /ws/secure\n    websocket: true\n    headers: { Authorization: 'Bearer nope' }\n"
        "  - name: Plain echo\n    path: /ws/echo\n"
    )
    return collection


def ws_send(explorer_bin, tmp_path, collection, *args, **kwargs):
    return run(explorer_bin, tmp_path, "send", "--collection", str(collection), *args, **kwargs)


def test_messages_go_out_and_echoes_print_one_per_line(explorer_bin, tmp_path, demo):
    collection = ws_collection(tmp_path, demo)
    result = ws_send(explorer_bin, tmp_path, collection, "Echo", "--message", "one", "--message", "@Greeting",
                     "--message", "@Order", "--count", "4")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.decode().splitlines()
    greeting = json.loads(lines[0])
    assert greeting["headers"] == {"x-trace": "abc"}
    assert lines[1:] == ["one", "hello templated", '{"op":"buy","qty":2}']
    assert "Closed by the client with 1000 (normal closure): 4 messages received." in result.stderr


def test_json_lines_carry_direction_kind_time_and_size_and_the_close(explorer_bin, tmp_path, demo):
    collection = ws_collection(tmp_path, demo)
    result = ws_send(explorer_bin, tmp_path, collection, "Ticks", "--json")
    assert result.returncode == 0, result.stderr
    records = [json.loads(line) for line in result.stdout.decode().splitlines()]
    ticks = [record for record in records if record["kind"] == "text"]
    assert [json.loads(tick["text"])["tick"] for tick in ticks] == [1, 2, 3]
    assert all(tick["direction"] == "received" and tick["size"] == len(tick["text"].encode()) for tick in ticks)
    assert ticks[0]["time"].endswith("Z")
    closed = records[-1]
    assert closed["kind"] == "closed"
    assert (closed["code"], closed["initiator"], closed["normal"]) == (1000, "server", True)
    assert closed["reason"] == "3 ticks sent"


def test_lines_on_stdin_are_sent_and_wait_ends_a_silent_session(explorer_bin, tmp_path, demo):
    collection = ws_collection(tmp_path, demo)
    result = subprocess.run(
        [str(explorer_bin), "send", "--collection", str(collection), "Echo", "--wait", "0.5"],
        input=b"first line\nsecond {{word}}\n", capture_output=True, timeout=60,
        env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "XDG_STATE_HOME": str(tmp_path / "state"), "LANG": "C.UTF-8"})
    assert result.returncode == 0, result.stderr
    assert result.stdout.decode().splitlines()[1:] == ["first line", "second templated"]
    assert "no message for 0.5 s" in result.stderr.decode()


def test_a_server_close_with_a_policy_code_exits_1_with_the_sentence(explorer_bin, tmp_path, demo):
    collection = ws_collection(tmp_path, demo)
    result = ws_send(explorer_bin, tmp_path, collection, "Echo", "--message", "close 1008 not allowed")
    assert result.returncode == 1
    assert result.stderr.strip() == "Closed by the server with 1008 (policy violation): not allowed."


def test_a_dropped_connection_is_an_abnormal_close(explorer_bin, tmp_path, demo):
    collection = ws_collection(tmp_path, demo)
    result = ws_send(explorer_bin, tmp_path, collection, "Echo", "--message", "drop")
    assert result.returncode == 1
    assert "1006 (abnormal closure)" in result.stderr


def test_the_upgrade_carries_auth_and_a_wrong_token_fails_the_upgrade(explorer_bin, tmp_path, demo):
    collection = ws_collection(tmp_path, demo)
    good = ws_send(explorer_bin, tmp_path, collection, "Secure", "--count", "1")
    assert good.returncode == 0, good.stderr
    assert json.loads(good.stdout.decode().splitlines()[0])["user"] == "ada"
    bad = ws_send(explorer_bin, tmp_path, collection, "Wrong token", "--count", "1")
    assert bad.returncode == 1
    # Hummingbird answers every refused upgrade with an empty 400.
    assert "refused the WebSocket upgrade with 400 Bad Request" in bad.stderr, bad.stderr
    assert "/ws/secure" in bad.stderr


def test_the_upgrade_gets_an_oauth2_token_and_the_environments_cookies(explorer_bin, tmp_path, demo):
    local = demo.urls["local"]
    collection = tmp_path / "ws-auth.yaml"
    collection.write_text(
        "name: sockets with auth\n"
        f"environments:\n  - name: local\n    base_url: {local}\n"
        "endpoints:\n"
        "  - name: Secure by OAuth2\n    path: /ws/secure\n    websocket: true\n"
        "    auth:\n      type: oauth2\n      grant: client_credentials\n"
        f"      token_url: {local}/oauth/token\n      client_id: explorer-demo\n      client_secret: demo-client-secret\n"
        "  - name: Set a cookie\n    path: /cookies/set\n    query: { session: s1 }\n"
        "  - name: Echo\n    path: /ws/echo\n    websocket: true\n"
    )
    secured = ws_send(explorer_bin, tmp_path, collection, "Secure by OAuth2", "--count", "1")
    assert secured.returncode == 0, secured.stderr
    assert json.loads(secured.stdout.decode().splitlines()[0])["user"] == "ada"

    assert ws_send(explorer_bin, tmp_path, collection, "Set a cookie").returncode == 0
    echoed = ws_send(explorer_bin, tmp_path, collection, "Echo", "--count", "1")
    assert echoed.returncode == 0, echoed.stderr
    assert json.loads(echoed.stdout.decode().splitlines()[0])["cookie"] == "session=s1"
    without = ws_send(explorer_bin, tmp_path, collection, "Echo", "--count", "1", "--no-cookies")
    assert "cookie" not in json.loads(without.stdout.decode().splitlines()[0])


def test_a_ws_base_url_makes_any_endpoint_a_websocket(explorer_bin, tmp_path, demo):
    collection = ws_collection(tmp_path, demo)
    result = ws_send(explorer_bin, tmp_path, collection, "Plain echo", "--env", "socket", "--message", "hi", "--count", "2")
    assert result.returncode == 0, result.stderr
    assert result.stdout.decode().splitlines()[1] == "hi"
    plain = ws_send(explorer_bin, tmp_path, collection, "Plain echo", "--env", "local")
    assert b"Upgrade Required" in plain.stdout


def test_history_keeps_the_session_capped_like_a_body(explorer_bin, tmp_path, demo):
    collection = ws_collection(tmp_path, demo)
    env = {"EXPLORER_HISTORY_BODY_CAP": "1K"}
    messages = [arg for number in range(40) for arg in ("--message", f"message number {number:02d}")]
    result = ws_send(explorer_bin, tmp_path, collection, "Echo", *messages, "--count", "41", env=env)
    assert result.returncode == 0, result.stderr
    row = listed(explorer_bin, tmp_path, env=env)[0]
    shown = json.loads(history(explorer_bin, tmp_path, "show", str(row["id"]), "--json", env=env).stdout)
    assert shown["status"] == 101
    assert shown["bodyTruncated"] is True
    assert shown["bodySize"] > 1024
    kept = shown["body"].splitlines()
    assert 0 < len(kept) < 81
    assert json.loads(kept[0])["direction"] in ("sent", "received")


def test_send_prints_each_tick_as_it_arrives(explorer_bin, tmp_path, demo, screen):
    collection = ws_collection(tmp_path, demo)
    # Endless ticks: what shows on the screen arrived while the session is still open.
    (tmp_path / "endless.yaml").write_text(collection.read_text().replace('interval_ms: "50", count: "3"', 'interval_ms: "100"'))
    pane = screen([str(explorer_bin), "send", "--collection", str(tmp_path / "endless.yaml"), "Ticks"], width=120, height=20)
    shown = pane.wait_for('"tick": 2')
    assert "[exited" not in shown
    pid = poll(lambda: pane.child_pid("explorer"), message="the explorer's pid")
    os.kill(pid, signal.SIGTERM)
    pane.wait_for("[exited")
