"""The TUI calling gRPC endpoints of the demo (its gRPC server, with reflection): a unary call's
status and message, a server stream's messages before it ends, a refusal's status and rich
error details, and a stream that never ends stopped with Esc."""
from __future__ import annotations

import re

from test_tui import send, tui  # noqa: F401  (the fixture)


def test_a_unary_call_shows_ok_and_its_message(tui):
    s = tui()
    # The list names a gRPC endpoint's kind where HTTP's show their method: "gRPC" is a word
    # the filter matches, and keeps it apart from the HTTP endpoint of the same name.
    send(s, "gRPC Get user")
    text = s.wait_for('"name": "Ada Lovelace"')
    assert re.search(r"\bOK\b.*gRPC unary", text), text
    assert "200" not in text.split("Response", 1)[1].splitlines()[1], text


def test_a_server_stream_shows_its_first_message_before_it_ends(tui):
    s = tui()
    # The heartbeat never ends, so its first tick on screen is one shown while the call is live
    # (however slowly this machine polls the screen).
    send(s, "gRPC Heartbeat")
    text = s.wait_for("#1 ·")
    assert "live ·" in text, text
    assert "■" not in text, text
    s.keys("Escape")
    s.wait_for("cancelled")


def test_a_server_stream_that_ends_shows_every_message_and_its_status(tui):
    s = tui()
    send(s, "gRPC Stream posts")  # 3 posts, 0.5 s apart
    s.wait_for("■ OK")
    text = s.wait_for("#3 ·")
    assert re.search(r"\bOK\b.*gRPC server streaming", text), text


def test_a_refusal_shows_its_status_and_the_bad_request_detail(tui):
    s = tui()
    send(s, "gRPC Create user")
    text = s.wait_for("INVALID_ARGUMENT (3)")
    text = s.wait_for("BadRequest username")
    assert "ErrorInfo DIRECTORY_READ_ONLY" in text, text
    # With no message, the body is the decoded google.rpc.Status.
    s.wait_for('"@type": "type.googleapis.com/google.rpc.BadRequest"')


def test_a_stream_that_never_ends_stops_with_escape(tui):
    s = tui()
    send(s, "gRPC Heartbeat")
    s.wait_for("#1 ·")
    s.keys("Escape")
    s.wait_for("cancelled")


def test_a_bidirectional_call_stays_open_for_typed_messages(tui):
    s = tui()
    send(s, "gRPC Chat")
    s.wait_for("→ sent #2")  # the endpoint's two messages
    s.wait_for('"text": "1: how are you?"')  # and the answers, the call still open
    s.keys("t")
    s.type('{"text": "typed here"}')
    s.keys("Enter")
    s.wait_for('"text": "typed here"')  # the answer (no author: the text as sent)
    s.wait_for("→ sent #3")
    s.keys("Escape")  # closes the message line
    s.wait_until_gone("typed here\"}")
    s.keys("Escape")  # no more messages: the server ends the call
    s.wait_for("■ OK")
