"""`explorer send` against replies that break HTTP or say nothing of what happened to them:
each is answered with the sentence that says what was wrong (issue 51, findings 14 and 15).

The replies come from `hostile_server.HostileServer`, one misbehaviour per path."""
from __future__ import annotations

import json
import os
import pty
import subprocess
from pathlib import Path

import pytest

from hostile_server import BEHAVIOURS, STATIC, HostileServer
from test_send import one_sentence, run
from test_tui import send as send_in_tui


@pytest.fixture
def hostile_server():
    server = HostileServer()
    yield server
    server.close()


def collection(tmp_path: Path, server: HostileServer) -> Path:
    """A collection with one endpoint per behaviour, named by its path without the slash
    (`drip` drips a byte every 0.2 s)."""
    path = tmp_path / "hostile.yaml"
    endpoints = "".join(f"  - name: {name[1:]}\n    path: {name}\n" for name in BEHAVIOURS if name != "/drip")
    endpoints += "  - name: drip\n    path: /drip\n    query: { every: \"0.2\" }\n"
    endpoints += "  - name: checked-br\n    path: /br\n    assert:\n      - status == 200\n"
    path.write_text(
        "name: hostile\n"
        "environments:\n"
        f"  - name: local\n    base_url: http://127.0.0.1:{server.port}\n"
        "endpoints:\n" + endpoints
    )
    return path


def send(explorer_bin, tmp_path, server, name, *args):
    return run(explorer_bin, tmp_path, "send", "--collection", str(collection(tmp_path, server)), name, *args)


# What was wrong, as the sentence on stderr says it (after "is not valid HTTP/1.1: ").
MALFORMED = {
    "nul-header": "a header holds a byte HTTP does not allow there",
    "esc-header": "a header holds a byte HTTP does not allow there",
    "huge-header": "its headers are larger than the client reads (80 KB in one header or in all of them",
    "many-headers": "its headers are larger than the client reads (80 KB in one header or in all of them",
    "bad-chunk": "a chunk of its chunked body does not start with a hexadecimal size",
    "two-content-lengths": "it sent Content-Length more than once",
    "te-and-cl": "its Content-Length is empty or not a number, or it came with Transfer-Encoding",
    "http09": "it does not begin with an HTTP/1.x status line (an HTTP/0.9 reply",
    "status-1": "its status code is not three digits",
}


@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_a_malformed_reply_says_what_was_wrong(explorer_bin, tmp_path, hostile_server, name):
    result = send(explorer_bin, tmp_path, hostile_server, name)

    assert result.returncode == 1
    assert one_sentence(result.stderr), result.stderr
    assert f"The response from {hostile_server.url('/' + name)} is not valid HTTP/1.1: {MALFORMED[name]}" in result.stderr
    assert "closed the connection" not in result.stderr
    assert result.stderr.rstrip().endswith("the server, or a proxy in between, needs fixing.")


def test_a_reply_with_bare_lf_line_ends_is_refused_naming_the_likely_cause(explorer_bin, tmp_path, hostile_server):
    # curl reads it; the HTTP/1.1 parser under async-http-client (llhttp, strict) does not, lets
    # no client loosen it, and SwiftNIO reports it as an unnamed parser error: the sentence
    # names the likely causes.
    result = send(explorer_bin, tmp_path, hostile_server, "bare-lf")

    assert result.returncode == 1
    assert one_sentence(result.stderr), result.stderr
    assert ("is not valid HTTP/1.1: its head breaks HTTP/1.1 in a way the parser does not name "
            "(most often a line that ends in LF alone where CRLF is required") in result.stderr


@pytest.mark.parametrize("name,scheme", [("redirect-file", "file"), ("redirect-gopher", "gopher")])
def test_a_redirect_to_another_scheme_is_not_followed_and_says_so(explorer_bin, tmp_path, hostile_server, name, scheme):
    result = send(explorer_bin, tmp_path, hostile_server, name, "-i")

    assert result.returncode == 0
    assert result.stdout.startswith(b"HTTP/1.1 302 Found")
    location = "file:///etc/passwd" if scheme == "file" else "gopher://127.0.0.1/"
    assert (f"Note: {hostile_server.url('/' + name)} redirected (302) to {location}, which was not followed: "
            f"only http and https redirects are followed, and this one is to {scheme}:; the redirect itself is the response.") in result.stderr


def test_no_follow_asks_for_the_redirect_itself_and_gets_no_note(explorer_bin, tmp_path, hostile_server):
    result = send(explorer_bin, tmp_path, hostile_server, "redirect-file", "--no-follow")

    assert result.returncode == 0
    assert result.stderr == ""


@pytest.mark.parametrize("coding", ["br", "zstd"])
def test_a_body_in_a_coding_explorer_cannot_decode_is_shown_as_received_with_a_note(explorer_bin, tmp_path, hostile_server, coding):
    piped = send(explorer_bin, tmp_path, hostile_server, coding)
    collected = send(explorer_bin, tmp_path, hostile_server, coding, "--json")

    note = f"Note: the body is {coding}-encoded and explorer cannot decode it (it decodes gzip and deflate); shown as received."
    assert piped.returncode == 0 and collected.returncode == 0
    assert note in piped.stderr
    assert note in collected.stderr
    assert piped.stdout == hostile_server_body(coding)


def test_an_endpoint_with_checks_gets_the_same_note(explorer_bin, tmp_path, hostile_server):
    # An endpoint with assert: is collected whole and checked: the notes are printed there too.
    result = send(explorer_bin, tmp_path, hostile_server, "checked-br")

    assert result.returncode == 0
    assert "Note: the body is br-encoded and explorer cannot decode it" in result.stderr


def hostile_server_body(coding: str) -> bytes:
    return STATIC["/" + coding].split(b"\r\n\r\n", 1)[1]


def test_a_body_in_a_coding_explorer_cannot_decode_reaches_a_terminal_escaped_after_the_note(explorer_bin, tmp_path, hostile_server):
    output = on_a_terminal(explorer_bin, tmp_path, ["send", "--collection", str(collection(tmp_path, hostile_server)), "br"])

    assert "Note: the body is br-encoded and explorer cannot decode it" in output
    assert "\x1b\x0b" not in output  # the body's ESC is shown escaped, never sent to the terminal raw


def on_a_terminal(explorer_bin, tmp_path, args: list[str]) -> str:
    """Runs explorer with stdout and stderr on a pseudo-terminal; returns what it wrote."""
    leader, follower = pty.openpty()
    environment = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tmp_path),
                   "XDG_STATE_HOME": str(tmp_path / "state"), "LANG": "C.UTF-8", "TERM": "xterm"}
    process = subprocess.Popen([str(explorer_bin), *args], stdin=subprocess.DEVNULL, stdout=follower, stderr=follower,
                               env=environment, cwd=str(tmp_path))
    os.close(follower)
    chunks = []
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:
            break
        if not chunk:
            break
        chunks.append(chunk)
    process.wait(timeout=60)
    os.close(leader)
    return b"".join(chunks).decode("utf-8", "replace")


def test_a_truncated_gzip_body_prints_what_inflated_then_says_it_was_cut(explorer_bin, tmp_path, hostile_server):
    result = send(explorer_bin, tmp_path, hostile_server, "truncated-gzip")

    assert result.returncode == 1
    assert result.stdout.startswith(b"line 00000 of a body")
    assert b"line 01999" not in result.stdout
    assert (f"The compressed body from {hostile_server.url('/truncated-gzip')} could not be decompressed "
            "(the gzip data stops before the end of its stream, so the body was cut short).") in result.stderr


def test_a_truncated_gzip_body_fails_in_json_too(explorer_bin, tmp_path, hostile_server):
    result = send(explorer_bin, tmp_path, hostile_server, "truncated-gzip", "--json")

    exchange = json.loads(result.stdout)
    assert "the gzip data stops before the end of its stream" in exchange["error"]


def test_the_last_event_without_a_blank_line_is_printed_with_a_note(explorer_bin, tmp_path, hostile_server):
    result = send(explorer_bin, tmp_path, hostile_server, "sse-no-final-newline", "--stream")

    assert result.returncode == 0
    blocks = [block for block in result.stdout.decode().split("\n\n") if block.strip()]
    assert [block.splitlines()[-1] for block in blocks] == ["first", "last"]
    assert ("Note: the event stream ended in the middle of an event (no blank line after it): it is printed last, "
            "though an EventSource would drop it.") in result.stderr


@pytest.mark.parametrize("name,code", [("custom-reason", 299), ("unknown-code", 999)])
def test_json_and_include_invent_no_reason_for_a_code_no_rfc_names(explorer_bin, tmp_path, hostile_server, name, code):
    # The server's own phrase is not read (SwiftNIO's parser drops it): no phrase is better
    # than "Unknown Status" or a class name the server never sent.
    collected = send(explorer_bin, tmp_path, hostile_server, name, "--json")
    included = send(explorer_bin, tmp_path, hostile_server, name, "-i", "--no-history")

    exchange = json.loads(collected.stdout)
    assert exchange["status"] == code
    assert exchange["reason"] is None
    assert included.stdout.split(b"\n", 1)[0] == f"HTTP/1.1 {code}".encode()


def test_json_keeps_the_rfc_reason_of_a_named_code(explorer_bin, tmp_path, hostile_server):
    exchange = json.loads(send(explorer_bin, tmp_path, hostile_server, "redirect-file", "--json").stdout)

    assert (exchange["status"], exchange["reason"]) == (302, "Found")


def test_a_server_that_drips_its_head_is_not_said_to_have_sent_nothing(explorer_bin, tmp_path, hostile_server):
    result = send(explorer_bin, tmp_path, hostile_server, "drip", "--timeout", "1")

    assert result.returncode == 1
    assert "sent nothing" not in result.stderr
    assert (f"Stopped at --timeout 1 s: {hostile_server.url('/drip?every=0.2')} had not sent a complete response head in that time "
            "(it may have sent part of it: the idle timeout bounds the wait for the whole head). Raise --timeout to wait longer.") in result.stderr


# The TUI says the same above the body.

def open_tui(explorer_bin, tmp_path, server, screen):
    opened = screen([str(explorer_bin), str(collection(tmp_path, server))], width=200, height=40)
    opened.wait_for("Endpoints")
    return opened


def test_the_tui_says_a_redirect_to_another_scheme_was_not_followed(explorer_bin, tmp_path, hostile_server, screen):
    s = open_tui(explorer_bin, tmp_path, hostile_server, screen)

    send_in_tui(s, "redirect-gopher")

    text = s.wait_for("which was not followed")
    assert "redirected (302) to gopher://127.0.0.1/" in text


def test_the_tui_says_a_br_body_is_shown_as_received(explorer_bin, tmp_path, hostile_server, screen):
    s = open_tui(explorer_bin, tmp_path, hostile_server, screen)

    send_in_tui(s, "br")

    s.wait_for("The body is br-encoded and explorer cannot decode it")
