"""`explorer mock` keeps to what it was asked to serve: `--from history` answers with the
exchanges of the collection it mocks (never another collection's), and it answers only the
names of this machine in `Host` (a web page that rebinds its own name to 127.0.0.1 is refused)
unless `--allow-host` names another."""
from __future__ import annotations

import json
import re
from pathlib import Path

from conftest import poll
from test_mock import Mock, curl, explorer, mocked_collection  # noqa: F401 (a fixture)


def collection_in(folder: Path, demo, name: str) -> Path:
    folder.mkdir()
    collection = folder / "explorer.yaml"
    collection.write_text(f"""
name: {name}
environments:
  - name: local
    base_url: {demo.urls['local']}
    proxy: none
endpoints:
  - name: Get user
    path: /users/1
""")
    return collection


def test_history_answers_come_from_the_mocked_collection_only(explorer_bin, tmp_path, demo):
    # Two collections with an endpoint of the same name in an environment of the same name.
    secret = collection_in(tmp_path / "private", demo, "Private")
    public = collection_in(tmp_path / "public", demo, "Public")
    sent = explorer(explorer_bin, tmp_path, "send", "Get user", "--collection", str(secret), "--env", "local")
    assert sent.returncode == 0, sent.stderr
    assert "ada" in sent.stdout

    mock = Mock(explorer_bin, tmp_path, str(public), "--from", "history")
    try:
        status, _, body = curl(mock.url + "/users/1")
    finally:
        mock.stop()
    # The public collection never sent it: the private collection's answer is not served.
    assert status == 501, body
    assert "ada" not in body
    assert "send it once" in json.loads(body)["detail"]

    own = Mock(explorer_bin, tmp_path, str(secret), "--from", "history")
    try:
        status, _, body = curl(own.url + "/users/1")
    finally:
        own.stop()
    assert status == 200 and json.loads(body) == json.loads(sent.stdout)


def test_the_mock_refuses_a_host_that_is_not_this_machine(explorer_bin, tmp_path, demo):
    collection = collection_in(tmp_path / "api", demo, "API")
    explorer(explorer_bin, tmp_path, "send", "Get user", "--collection", str(collection), "--env", "local")
    mock = Mock(explorer_bin, tmp_path, str(collection), "--from", "history")
    port = re.search(r":(\d+)", mock.url.split("//")[1]).group(1)
    try:
        # What a page on rebound-name.example would send after rebinding its name to 127.0.0.1.
        status, headers, body = curl(mock.url + "/users/1", "-H", f"Host: rebound-name.example:{port}")
        assert status == 421, body
        assert headers["content-type"] == "application/problem+json"
        detail = json.loads(body)["detail"]
        assert "rebound-name.example" in detail and "--allow-host rebound-name.example" in detail
        assert "ada" not in body
        # The names of this machine are answered.
        assert curl(mock.url + "/users/1")[0] == 200
        assert curl(f"http://localhost:{port}/users/1", "--resolve", f"localhost:{port}:127.0.0.1")[0] == 200
        poll(lambda: any("refused" in line for line in mock.lines), message="the refusal in the access log")
    finally:
        mock.stop()
    log = "".join(mock.lines)
    assert re.search(r"GET \S*/users/1 → 421 \(refused Host rebound-name\.example:\d+: --allow-host to answer it\)", log), log

    allowed = Mock(explorer_bin, tmp_path, str(collection), "--from", "history", "--allow-host", "dev.example.test")
    try:
        status, _, body = curl(allowed.url + "/users/1", "-H", f"Host: DEV.example.test:{port}")
        assert status == 200 and "ada" in body
        assert curl(allowed.url + "/users/1", "-H", "Host: other.example")[0] == 421
    finally:
        allowed.stop()


def test_the_tuis_mock_refuses_a_host_that_is_not_this_machine(explorer_bin, screen, mocked_collection):  # noqa: F811
    s = screen([str(explorer_bin), str(mocked_collection)], width=120, height=32)
    s.wait_for("List users")
    s.keys("O")
    header = s.wait_for(re.compile(r"env  mock  port \d+"))
    port = re.search(r"env  mock  port (\d+)", header).group(1)
    status, _, body = curl(f"http://127.0.0.1:{port}/v1/users/7", "-H", f"Host: rebound-name.example:{port}")
    assert status == 421, body
    assert "ada@example.com" not in body
    assert curl(f"http://127.0.0.1:{port}/v1/users/7")[0] == 200
    s.keys("L")
    s.wait_for("GET /v1/users/7 → 421 (refused Host rebound-name.example:")
    s.keys("Escape")
    s.wait_until_gone("refused Host")
    s.keys("q")
    s.wait_for("[exited 0]")
