"""The TUI on the demo's WebSocket endpoints: the live message log, the message line with the
saved messages, ping, close with a code, the JSONPath filter on the log, reconnecting."""
from __future__ import annotations

import re

from test_tui import send, tui  # noqa: F401  (the fixture)


def test_the_message_line_sends_text_and_saved_messages_and_close_takes_a_code(tui):
    s = tui(height=40)
    send(s, "Echo socket")
    s.wait_for('"hello": "explorer demo"')
    assert "101 Switching Protocols" in s.text()
    s.keys("t")
    s.wait_for("Message (Tab: saved):")
    s.type("hello there")
    s.keys("Enter")
    s.wait_for(re.compile(r"← received text · 11 bytes"))
    # Tab fills in the saved messages in turn; the template is resolved when sent.
    s.keys("Tab")
    s.wait_for("Message (Tab: saved): hello ")
    s.keys("Tab")
    s.wait_for('Message (Tab: saved): {"op":"subscribe"')
    s.keys("Enter")
    s.wait_for('"op": "subscribe"')
    s.keys("Escape")
    s.wait_until_gone("Message (Tab: saved):")
    s.keys("P")
    s.wait_for("→ sent ping")
    s.keys("K")
    s.wait_for("Close with code and reason: 1000")
    s.type("bye")
    s.keys("Enter")
    s.wait_for("Closed by the client with 1000 (normal closure): bye.")


def test_ticks_follow_the_tail_and_the_filter_reads_each_messages_json(tui):
    s = tui(height=24)
    send(s, "Ticks every second")
    s.wait_for('"tick": 2', timeout=20)
    s.keys("f")
    s.wait_for("JSONPath")
    s.type("$.tick")
    s.keys("Enter")
    s.wait_for(re.compile(r"(\d+) of \d+ events match \$\.tick"))
    # Esc closes the open socket first (as it cancels a request in flight), then the filter.
    s.keys("Escape")
    s.wait_for("Closed by the client with 1000 (normal closure): closed by the user.")
    s.keys("Escape")
    s.wait_until_gone("events match")


def test_a_server_close_shows_its_sentence_and_enter_connects_again(tui):
    s = tui()
    send(s, "Secure echo")
    s.wait_for('"user": "ada"')
    s.keys("t")
    s.wait_for("Message (Tab: saved):")
    s.type("close 1008 go away")
    s.keys("Enter")
    s.wait_for("Closed by the server with 1008 (policy violation): go away.")
    s.keys("Escape")
    s.wait_until_gone("Message (Tab: saved):")
    s.keys("Enter")
    s.wait_for(re.compile(r"connected to .*/ws/secure"))
