"""`explorer demo --serve-only` answers real curl on every endpoint of the demo API."""
from __future__ import annotations

import base64
import gzip
import json
import signal
import subprocess

import pytest

from conftest import poll, start_demo, stop_demo


def curl(*args: str, data: bytes | None = None) -> tuple[int, dict[str, str], bytes]:
    """Runs the real curl; returns (status, headers with lower-cased names, raw body)."""
    result = subprocess.run(
        ["curl", "-sS", "-D", "-", "--max-time", "20", *args],
        capture_output=True, input=data, check=True,
    )
    raw = result.stdout
    # With -L there are several header blocks; the last one belongs to the final response.
    status, headers, body = 0, {}, raw
    while body.startswith(b"HTTP/"):
        head, _, body = body.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split()[1])
        headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
    return status, headers, body


def test_prints_the_three_environments_and_the_collection(demo):
    assert demo.urls["local"].endswith("/v1")
    assert len({url for url in demo.urls.values()}) == 3
    assert any("production" in line and "(protected)" in line for line in demo.lines)
    text = demo.collection.read_text()
    for environment, url in demo.urls.items():
        assert f"name: {environment}" in text and url in text


def test_users_are_paginated_with_a_link_header(demo):
    status, headers, body = curl(demo.url("local", "/users?page=2&per_page=5"))
    assert status == 200 and headers["content-type"].startswith("application/json")
    page = json.loads(body)
    assert page["page"] == 2 and page["per_page"] == 5 and len(page["items"]) == 5
    assert page["items"][0]["id"] == 6
    assert 'rel="next"' in headers["link"] and 'rel="prev"' in headers["link"] and "page=3" in headers["link"]
    assert int(headers["x-total-count"]) == page["total"]


def test_environments_hold_visibly_different_data(demo):
    _, _, local = curl(demo.url("local", "/users/1"))
    _, _, staging = curl(demo.url("staging", "/users/1"))
    assert json.loads(local)["name"] != json.loads(staging)["name"]


def test_user_crud_round_trip(demo):
    status, headers, body = curl("-X", "POST", "-H", "Content-Type: application/json",
                                 "--data", '{"name": "Test Person", "email": "test@example.com"}',
                                 demo.url("local", "/users"))
    assert status == 201
    created = json.loads(body)
    assert headers["location"].endswith(f"/users/{created['id']}")
    status, _, body = curl("-X", "PATCH", "-H", "Content-Type: application/json", "--data", '{"role": "editor"}',
                           demo.url("local", f"/users/{created['id']}"))
    assert status == 200 and json.loads(body)["role"] == "editor"
    status, _, _ = curl("-X", "DELETE", demo.url("local", f"/users/{created['id']}"))
    assert status == 204
    status, headers, body = curl(demo.url("local", f"/users/{created['id']}"))
    assert status == 404


def test_posts_list_and_create(demo):
    status, _, body = curl(demo.url("staging", "/posts"))
    assert status == 200 and json.loads(body)["items"][0]["title"].startswith("[staging]")
    status, _, body = curl("-X", "POST", "-H", "Content-Type: application/json",
                           "--data", '{"userId": 1, "title": "Hello"}', demo.url("local", "/posts"))
    assert status == 201 and json.loads(body)["title"] == "Hello"


def test_not_found_is_problem_json(demo):
    status, headers, body = curl(demo.url("local", "/users/9999"))
    assert status == 404 and headers["content-type"] == "application/problem+json"
    problem = json.loads(body)
    assert {"type", "title", "status", "detail", "instance"} <= problem.keys()
    assert problem["status"] == 404 and problem["instance"] == "/v1/users/9999"


def test_validation_errors_are_problem_json_with_an_errors_list(demo):
    status, headers, body = curl("-X", "POST", "-H", "Content-Type: application/json",
                                 "--data", '{"name": "", "email": "nope"}', demo.url("local", "/users"))
    assert status == 422 and headers["content-type"] == "application/problem+json"
    fields = {error["field"] for error in json.loads(body)["errors"]}
    assert fields == {"name", "email"}


def test_me_needs_the_demo_bearer_token(demo):
    status, headers, body = curl(demo.url("local", "/me"))
    assert status == 401 and headers["www-authenticate"].startswith("Bearer")
    assert json.loads(body)["status"] == 401
    status, _, body = curl("-H", "Authorization: Bearer demo-token", demo.url("local", "/me"))
    assert status == 200 and json.loads(body)["username"] == "ada"


def test_server_error_is_an_html_page(demo):
    status, headers, body = curl(demo.url("local", "/error"))
    assert status == 500 and headers["content-type"].startswith("text/html")
    assert b"<h1>Internal Server Error</h1>" in body


def test_rate_limited_has_retry_after(demo):
    status, headers, body = curl(demo.url("local", "/rate-limited"))
    assert status == 429 and headers["retry-after"] == "30"
    assert json.loads(body)["title"] == "Too Many Requests"


def test_echo_answers_any_method_with_what_it_got(demo):
    status, _, body = curl("-X", "PUT", "-H", "X-Custom: yes", "-H", "Content-Type: application/json",
                           "--data", '{"a": 1}', demo.url("local", "/echo/some/path?x=1&x=2&y=hello%20world"))
    assert status == 200
    echoed = json.loads(body)
    assert echoed["method"] == "PUT" and echoed["path"] == "/v1/echo/some/path"
    assert echoed["args"] == {"x": ["1", "2"], "y": "hello world"}
    assert echoed["headers"]["X-Custom"] == "yes" and echoed["json"] == {"a": 1}


def test_echo_parses_forms_and_multipart(demo):
    _, _, body = curl("--data-urlencode", "name=Ada Lovelace", "-d", "lang=swift", demo.url("local", "/echo"))
    assert json.loads(body)["form"] == {"name": "Ada Lovelace", "lang": "swift"}
    _, _, body = curl("-F", "field=value", "-F", "file=@-;filename=notes.txt", demo.url("local", "/echo"), data=b"hi there")
    echoed = json.loads(body)
    assert echoed["form"] == {"field": "value"}
    assert echoed["files"][0]["filename"] == "notes.txt" and echoed["files"][0]["content"] == "hi there"


def test_slow_waits_the_asked_time(demo):
    status, _, body = curl(demo.url("local", "/slow?ms=300"))
    assert status == 200 and json.loads(body)["sleptMs"] == 300


def test_large_streams_a_json_array(demo):
    status, headers, body = curl(demo.url("local", "/large?items=50000"))
    assert status == 200 and headers.get("transfer-encoding") == "chunked"
    items = json.loads(body)
    assert len(items) == 50000 and items[-1]["id"] == 50000


def test_redirect_is_a_302_chain(demo):
    status, headers, _ = curl(demo.url("local", "/redirect?n=3"))
    assert status == 302 and headers["location"].endswith("/redirect?n=2")
    status, _, body = curl("-L", demo.url("local", "/redirect?n=3"))
    assert status == 200 and "end of the redirect chain" in json.loads(body)["message"]


def test_gzip_is_gzip_encoded_json(demo):
    status, headers, body = curl(demo.url("local", "/gzip"))
    assert status == 200 and headers["content-encoding"] == "gzip"
    assert json.loads(gzip.decompress(body))["compressed"] is True


def test_image_is_a_png(demo):
    status, headers, body = curl(demo.url("local", "/image.png"))
    assert status == 200 and headers["content-type"] == "image/png"
    assert body.startswith(b"\x89PNG\r\n\x1a\n")


def test_latin1_text_is_latin1(demo):
    status, headers, body = curl(demo.url("local", "/latin1"))
    assert status == 200 and headers["content-type"] == "text/plain; charset=iso-8859-1"
    with pytest.raises(UnicodeDecodeError):
        body.decode("utf-8")
    assert "Café crème" in body.decode("iso-8859-1")


def test_unicode_json_has_emoji_cjk_and_rtl(demo):
    status, _, body = curl(demo.url("local", "/unicode"))
    value = json.loads(body.decode("utf-8"))
    assert status == 200 and "👋🏽" in value["greeting"]
    texts = {language["code"]: language["text"] for language in value["languages"]}
    assert texts["ja"] == "こんにちは、世界" and texts["ar"] == "مرحبا بالعالم"


def test_routes_answer_without_the_base_path_too(demo):
    root = demo.urls["local"].removesuffix("/v1")
    status, _, body = curl(root + "/users/1")
    assert status == 200 and json.loads(body)["id"] == 1


def test_unknown_route_is_a_problem_404(demo):
    status, headers, _ = curl(demo.url("local", "/nowhere"))
    assert status == 404 and headers["content-type"] == "application/problem+json"


def test_every_request_is_logged_and_a_long_session_is_not_held_up_by_its_log(demo):
    # More requests than a pipe's 64 KiB of access-log lines: one curl fetches the same URL
    # 2,500 times on one connection; the server keeps answering and logs every one.
    url = demo.url("local", "/users")
    result = subprocess.run(["curl", "-sS", "--max-time", "60", "-w", "%{http_code}\n", *(["-o", "/dev/null", url] * 2500)],
                            capture_output=True, text=True, timeout=90, check=True)
    assert result.stdout.split() == ["200"] * 2500

    def logged() -> int:
        return sum(1 for line in demo.lines if "GET /v1/users" in line and line.rstrip().endswith("200"))

    assert poll(lambda: logged() == 2500 or None, timeout=20, message="2,500 access-log lines")


def six_free_ports() -> int:
    """A port whose next five are free too (each bound once to be sure, then released): the
    demo's three HTTP ports and, above them, its three gRPC ports."""
    import socket
    for _ in range(50):
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        if port + 5 > 65535:
            continue
        sockets = []
        try:
            for candidate in range(port, port + 6):
                held = socket.socket()
                sockets.append(held)
                held.bind(("127.0.0.1", candidate))
            return port
        except OSError:
            continue
        finally:
            for held in sockets:
                held.close()
    raise AssertionError("no three consecutive free ports on 127.0.0.1")


def test_fixed_port_serves_three_consecutive_ports(explorer_bin, tmp_path):
    port = six_free_ports()
    running = start_demo(explorer_bin, tmp_path, port=port)
    try:
        assert running.urls["local"] == f"http://127.0.0.1:{port}/v1"
        assert running.urls["production"] == f"http://127.0.0.1:{port + 2}/v1"
    finally:
        assert stop_demo(running) == 0


def test_ctrl_c_stops_cleanly(explorer_bin, tmp_path):
    running = start_demo(explorer_bin, tmp_path, drain=False)
    running.process.send_signal(signal.SIGINT)
    assert running.process.wait(timeout=10) == 0
    assert "stopped" in running.process.stdout.read()


def test_a_taken_port_is_a_clear_error(explorer_bin, tmp_path):
    import socket
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = subprocess.run([str(explorer_bin), "demo", "--serve-only", "--port", str(port)],
                                capture_output=True, text=True, timeout=30)
    assert result.returncode == 1
    assert "could not listen" in result.stderr and "--port" in result.stderr
    assert "Address already in use." in result.stderr and "errno" not in result.stderr


def test_the_demo_ends_quietly_when_the_reader_of_its_log_goes(explorer_bin, tmp_path):
    # `explorer demo --serve-only | head -5`: once head has gone, the next access-log line
    # ends the server as a closed pipe ends any command-line tool (SIGPIPE), not with
    # Foundation's fatal error and a stack trace.
    demo = start_demo(explorer_bin, tmp_path, drain=False)
    try:
        demo.process.stdout.close()
        # The server ends while it logs this request, before answering it.
        subprocess.run(["curl", "-sS", "--max-time", "20", demo.url("local", "/users")], capture_output=True)
        demo.process.wait(timeout=20)
        assert demo.process.returncode == -signal.SIGPIPE
        stderr = demo.process.stderr.read()
        assert "Fatal error" not in stderr
        assert stderr == ""
    finally:
        stop_demo(demo)


def test_a_quiet_demo_answers_and_prints_no_line_per_request(explorer_bin, tmp_path):
    demo = start_demo(explorer_bin, tmp_path, options=("--quiet",))
    try:
        printed = len(demo.lines)
        for _ in range(3):
            result = subprocess.run(["curl", "-sS", "--max-time", "20", demo.url("local", "/users/1")], capture_output=True, text=True)
            assert '"id"' in result.stdout, result
        # One more request, to a route that logs as any other, after which nothing was printed.
        subprocess.run(["curl", "-sS", "--max-time", "20", demo.url("staging", "/users")], capture_output=True)
        assert len(demo.lines) == printed and not any("→" in line for line in demo.lines), demo.lines
    finally:
        stop_demo(demo)


def test_quiet_without_serve_only_is_refused(explorer_bin):
    result = subprocess.run([str(explorer_bin), "demo", "--quiet"], capture_output=True, text=True, timeout=30)
    assert result.returncode == 2
    assert "--quiet applies to --serve-only" in result.stderr
