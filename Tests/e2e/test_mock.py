"""`explorer mock` end to end: the real binary serving a collection from the demo's own OpenAPI
document and from the history, driven by curl, `explorer send` and `explorer run`, and checked
from outside by schemathesis."""
from __future__ import annotations

import json
import re
import signal
import subprocess
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from test_openapi_conformance import run_schemathesis
from test_send_stream import environment



def explorer(explorer_bin: Path, tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(explorer_bin), *args], capture_output=True, text=True, env=environment(tmp_path),
                          cwd=str(tmp_path), timeout=60)


class Mock:
    def __init__(self, explorer_bin: Path, tmp_path: Path, *args: str):
        self.process = subprocess.Popen([str(explorer_bin), "mock", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                        text=True, env=environment(tmp_path), cwd=str(tmp_path))
        self.lines: list[str] = []
        deadline = time.monotonic() + 30
        self.url = None
        while time.monotonic() < deadline:
            line = self.process.stdout.readline()
            if not line:
                raise AssertionError(f"explorer mock exited early: {self.process.stderr.read()}")
            self.lines.append(line)
            match = re.match(r"\s+mock\s+(http://\S+)", line)
            if match:
                self.url = match.group(1)
            if line.startswith("Press Ctrl-C"):
                break
        assert self.url, self.lines
        threading.Thread(target=self._drain, daemon=True).start()

    def _drain(self):
        for line in self.process.stdout:
            self.lines.append(line)

    def stop(self) -> int:
        self.process.send_signal(signal.SIGINT)
        try:
            return self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            return self.process.wait()


def curl(url: str, *args: str) -> tuple[int, dict[str, str], str]:
    result = subprocess.run(["curl", "-s", "-i", *args, url], capture_output=True, timeout=30)
    head, _, body = result.stdout.decode("utf-8").partition("\r\n\r\n")
    lines = head.split("\r\n")
    status = int(lines[0].split()[1])
    headers = {name.strip().lower(): value.strip() for name, _, value in (line.partition(":") for line in lines[1:])}
    return status, headers, body


@pytest.fixture
def mocked_collection(demo, tmp_path) -> Path:
    """A collection naming the demo's own document (fetched from the running demo) with `openapi:`."""
    with urllib.request.urlopen(demo.urls["local"] + "/openapi.json", timeout=10) as response:
        (tmp_path / "demo-openapi.json").write_bytes(response.read())
    collection = tmp_path / "api.yaml"
    collection.write_text(f"""
name: Mocked demo
openapi: demo-openapi.json
environments:
  - name: local
    base_url: {demo.urls['local']}
    proxy: none
endpoints:
  - name: List users
    path: /users
    assert:
      - status == 200
      - jsonpath $.items[0].username == "ada"
  - name: Get user
    path: /users/{{{{user_id}}}}
    operation: getUser
    assert:
      - status == 200
      - jsonpath $.id == 1
  - name: Unicode
    path: /unicode
    assert: [status == 200]
variables:
  user_id: "1"
""")
    return collection


def test_the_mock_answers_curl_send_and_run(explorer_bin, tmp_path, mocked_collection):
    out = tmp_path / "mocked.yaml"
    mock = Mock(explorer_bin, tmp_path, str(mocked_collection), "--port", "0", "--collection-out", str(out))
    try:
        assert mock.url.endswith("/v1")
        status, headers, body = curl(mock.url + "/users")
        assert status == 200 and headers["content-type"] == "application/json"
        assert json.loads(body)["items"][0]["username"] == "ada"
        status, headers, body = curl(mock.url + "/users/5", "-H", "Prefer: code=404")
        assert status == 404 and headers["content-type"] == "application/problem+json"
        status, _, body = curl(mock.url + "/users", "-H", "Prefer: example=empty")
        assert status == 200 and json.loads(body)["total"] == 0
        status, headers, body = curl(mock.url + "/userz")
        assert status == 404 and "GET|POST /users" in json.loads(body)["detail"]
        status, headers, _ = curl(mock.url + "/users", "-X", "DELETE")
        assert status == 405 and headers["allow"] == "GET, POST, HEAD"

        sent = explorer(explorer_bin, tmp_path, "send", "Get user", "--collection", str(out), "--env", "mock")
        assert sent.returncode == 0, sent.stderr
        assert json.loads(sent.stdout)["email"] == "ada@example.com"
        ran = explorer(explorer_bin, tmp_path, "run", "--collection", str(out), "--env", "mock")
        assert ran.returncode == 0, ran.stderr + ran.stdout
        assert "3 passed, 0 failed" in ran.stdout
        # The collection itself is left as it was.
        assert "mock" not in mocked_collection.read_text().split("environments:")[1].split("endpoints:")[0]
    finally:
        assert mock.stop() == 0
    log = "".join(mock.lines)
    assert "GET /v1/users → 200 (200 example firstPage)" in log
    assert "GET /v1/users/5 → 404" in log
    assert "explorer mock stopped." in log


def test_the_mock_replays_the_history_and_fails_on_purpose(explorer_bin, tmp_path, demo, mocked_collection):
    sent = explorer(explorer_bin, tmp_path, "send", "Get user", "--collection", str(mocked_collection), "--env", "local")
    assert sent.returncode == 0, sent.stderr
    recorded = json.loads(sent.stdout)
    mock = Mock(explorer_bin, tmp_path, str(mocked_collection), "--from", "history", "--fail-rate", "0.5", "--seed", "3")
    try:
        statuses = []
        for _ in range(12):
            status, _, body = curl(mock.url + "/users/1")
            statuses.append(status)
            if status == 200:
                assert json.loads(body) == recorded
        assert 200 in statuses and 500 in statuses
        status, _, body = curl(mock.url + "/unicode")
        assert status in (501, 500)
    finally:
        mock.stop()
    again = Mock(explorer_bin, tmp_path, str(mocked_collection), "--from", "history", "--fail-rate", "0.5", "--seed", "3")
    try:
        assert [curl(again.url + "/users/1")[0] for _ in range(12)] == statuses
    finally:
        again.stop()


# A mock keeps no state (a deleted user is still there) and does not check the values of
# credentials (any bearer token opens /me): those two checks are about a real server.
MOCK_EXCLUDED = ("use_after_free", "ignored_auth")
# Requests that break the document: the demo's document declares no 400 or 422 for most
# operations, so the mock's 422 problem+json is a status (and content type) the operation does
# not document; every other check runs, negative_data_rejection (ST201) among them.
NEGATIVE_EXCLUDED = (*MOCK_EXCLUDED, "status_code_conformance", "content_type_conformance")


def test_schemathesis_finds_the_mock_true_to_the_document(explorer_bin, tmp_path, mocked_collection):
    mock = Mock(explorer_bin, tmp_path, str(mocked_collection))
    try:
        # Valid requests, every answer checked; the mock keeps no state, so a valid request is
        # never refused (positive_data_acceptance, left out for the demo, runs here).
        result = run_schemathesis(str(tmp_path / "demo-openapi.json"), mock.url, exclude=MOCK_EXCLUDED,
                                  include=("positive_data_acceptance",))
        assert result.returncode == 0, result.stdout[-8000:] + result.stderr[-2000:]
        # Valid and invalid requests: each invalid one is refused.
        result = run_schemathesis(str(tmp_path / "demo-openapi.json"), mock.url, exclude=NEGATIVE_EXCLUDED,
                                  mode="all", include=("positive_data_acceptance",))
        assert result.returncode == 0, result.stdout[-8000:] + result.stderr[-2000:]
        assert "Schema-violating request accepted" not in result.stdout
    finally:
        mock.stop()
    log = "".join(mock.lines)
    assert "(request refused: " in log, log[-4000:]


def test_schemathesis_finds_requests_accepted_without_validation(explorer_bin, tmp_path, mocked_collection):
    mock = Mock(explorer_bin, tmp_path, str(mocked_collection), "--no-validate-requests")
    try:
        assert any("answered unchecked (--no-validate-requests)" in line for line in mock.lines), mock.lines
        result = run_schemathesis(str(tmp_path / "demo-openapi.json"), mock.url, exclude=NEGATIVE_EXCLUDED,
                                  mode="all", include=("positive_data_acceptance",))
        assert result.returncode != 0, result.stdout[-4000:]
        assert "Schema-violating request accepted" in result.stdout, result.stdout[-8000:]
    finally:
        mock.stop()


def test_the_mock_refuses_requests_the_document_forbids(explorer_bin, tmp_path, mocked_collection):
    mock = Mock(explorer_bin, tmp_path, str(mocked_collection))
    try:
        assert any("checked against the document" in line for line in mock.lines), mock.lines
        # /users/{id} declares no 400 or 422: the mock's own problem lists the violations.
        status, headers, body = curl(mock.url + "/users/abc")
        assert status == 422 and headers["content-type"] == "application/problem+json", body
        problem = json.loads(body)
        assert problem["title"] == "The request does not match the document"
        assert problem["violations"][0]["in"] == "path" and problem["violations"][0]["name"] == "id"
        # POST /users declares 400 and 422: its documented answer, 422 for a body that breaks the schema.
        status, headers, body = curl(mock.url + "/users", "-X", "POST", "-H", "Content-Type: application/json",
                                     "--data", '{"name": 7}')
        assert status == 422, body
        status, _, body = curl(mock.url + "/users", "-X", "POST", "-H", "Content-Type: application/json",
                               "--data", '{"name": "Ada", "email": "ada@example.com"}')
        assert status == 201, body
        # Prefer: code=N asks for an answer whatever the request.
        assert curl(mock.url + "/users/abc", "-H", "Prefer: code=404")[0] == 404
    finally:
        mock.stop()
    log = "".join(mock.lines)
    assert "GET /v1/users/abc → 422 (request refused: path id: " in log, log
    assert "POST /v1/users → 422 (422 example" in log and "request refused: body /name: " in log, log
