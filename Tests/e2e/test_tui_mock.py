"""The TUI's mock (`O`) end to end: the real binary in a real terminal serves a mock of the
collection (the demo's own OpenAPI document) on 127.0.0.1 as the environment `mock`, the
session's requests and curl's are answered by it and listed in its log (`L`), `O` stops it and
quitting closes its port. The collection file is never changed."""
from __future__ import annotations

import re
import subprocess

from test_mock import curl, mocked_collection  # noqa: F401 (a fixture)


def refused(url: str) -> bool:
    return subprocess.run(["curl", "-s", "-o", "/dev/null", "--max-time", "5", url]).returncode == 7


def test_the_tui_serves_a_mock_as_an_environment_of_its_own(explorer_bin, screen, mocked_collection):  # noqa: F811
    written = mocked_collection.read_text()
    s = screen([str(explorer_bin), str(mocked_collection)], width=120, height=32)
    s.wait_for("List users")

    s.keys("O")
    header = s.wait_for(re.compile(r"env  mock  port \d+"))
    port = re.search(r"env  mock  port (\d+)", header).group(1)
    assert re.search(rf"● mock\s+port {port}", header), header
    assert "a mock of local on port " + port in header, header

    # The session's request goes to the mock: the document's example answers it.
    s.keys("Enter")
    answered = s.wait_for('"username": "ada"')
    assert "200 OK" in answered and "mock" in answered, answered
    # So does anyone else's on this machine.
    status, _, body = curl(f"http://127.0.0.1:{port}/v1/users/7")
    assert status == 200 and "ada@example.com" in body

    s.keys("L")
    log = s.wait_for("GET /v1/users/7 → 200")
    assert re.search(r"\d\d:\d\d:\d\d  GET /v1/users → 200", log), log
    assert "Mock · 2 answered" in log, log
    s.keys("Escape")
    s.wait_until_gone("answered")

    # Another environment and back: the mock stays.
    s.keys("e")
    s.wait_for("Switch environment")
    s.keys("1")
    s.wait_for("env  local")
    assert f"port {port}" in s.text()

    s.keys("O")
    s.wait_for("Mock stopped (it answered 2 requests).")
    assert refused(f"http://127.0.0.1:{port}/v1/users")
    assert f"port {port}" not in s.text()

    # Started again, it goes with the explorer.
    s.keys("O")
    header = s.wait_for(re.compile(r"env  mock  port \d+"))
    port = re.search(r"env  mock  port (\d+)", header).group(1)
    s.keys("q")
    s.wait_for("[exited 0]")
    assert refused(f"http://127.0.0.1:{port}/v1/users")
    assert mocked_collection.read_text() == written
