"""`openapi:` naming a URL, end to end: the document served by a server of the test on
127.0.0.1, fetched once per command within the limits, for `send --validate`, `openapi
refresh` and `explorer mock`."""
from __future__ import annotations

import json
import re
from pathlib import Path

from conftest import LocalServer
from test_contract import DOCUMENT
from test_mock import Mock, curl
from test_send import run


def served_document():
    return LocalServer(lambda method, path: (200, {"Content-Type": "application/yaml"}, DOCUMENT.encode())
                       if path.startswith("/specs/api.yaml") else (404, {}, b"no"))


def collection(tmp_path: Path, demo, document_url: str) -> Path:
    path = tmp_path / "explorer.yaml"
    path.write_text(f"""\
name: Contract by URL
openapi: {document_url}
environments:
  - name: local
    base_url: {demo.urls['local']}
endpoints:
  - name: Get user
    path: /users/1
    operation: getUser
  - name: Get post
    path: /posts/1
""")
    return path


def test_send_validate_checks_against_a_document_fetched_once(explorer_bin, tmp_path, demo):
    server = served_document()
    try:
        url = f"{server.url}/specs/api.yaml"
        path = collection(tmp_path, demo, url)
        good = run(explorer_bin, tmp_path, "send", "--collection", str(path), "--no-history", "Get user", "--validate")
        assert good.returncode == 0, good.stderr
        assert len(server.requests) == 1

        bad = run(explorer_bin, tmp_path, "send", "--collection", str(path), "--no-history", "Get post", "--validate")
        assert bad.returncode == 3, bad.stderr
        assert f"✗ schema: 2 violations of getPost in {url}" in bad.stderr
        assert len(server.requests) == 2  # once per command

        # The size limit holds for a URL as for a file, and says how to raise it.
        small = run(explorer_bin, tmp_path, "send", "--collection", str(path), "--no-history", "Get user", "--validate",
                    env={"EXPLORER_MAX_DOCUMENT_SIZE": "1000"})
        assert small.returncode == 2
        assert f"{url}: the OpenAPI document cannot be imported: the document is over the limit of 1000 bytes." in small.stderr
        assert "EXPLORER_MAX_DOCUMENT_SIZE" in small.stderr

        missing = collection(tmp_path, demo, f"{server.url}/specs/gone.yaml")
        gone = run(explorer_bin, tmp_path, "send", "--collection", str(missing), "--no-history", "Get user", "--validate")
        assert gone.returncode == 2
        assert "the server answered 404. Check the URL in openapi:." in gone.stderr
    finally:
        server.close()


def test_refresh_and_the_mock_read_the_document_from_its_url(explorer_bin, tmp_path, demo):
    server = served_document()
    try:
        path = collection(tmp_path, demo, f"{server.url}/specs/api.yaml")
        refreshed = run(explorer_bin, tmp_path, "openapi", "refresh", "--collection", str(path), "--json")
        assert refreshed.returncode == 3, refreshed.stderr
        report = json.loads(refreshed.stdout)
        assert [added["operation"] for added in report["added"]] == ["getPost"]

        mock = Mock(explorer_bin, tmp_path, str(path), "--port", "0")
        try:
            status, headers, body = curl(mock.url + "/users/7")
            assert status == 200 and headers["content-type"] == "application/json"
            assert set(json.loads(body)) >= {"id", "name", "email"}
        finally:
            mock.stop()
        assert any(re.search(r"GET /v1/users/7 → 200", line) for line in mock.lines), mock.lines
    finally:
        server.close()
