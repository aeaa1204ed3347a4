"""Composing in the TUI, in a real terminal: a new endpoint, its headers and body edited in
the editors, saved to the collection file, found through the palette after a restart; drafts
that survive a crash; delete and undo."""
from __future__ import annotations

import os
import re
import signal
from pathlib import Path

import pytest

from conftest import poll
from test_tui import select_endpoint


@pytest.fixture
def tui(explorer_bin, demo, screen):
    def open_tui(width: int = 120, height: int = 36):
        opened = screen([str(explorer_bin), str(demo.collection)], width=width, height=height)
        opened.wait_for("Endpoints")
        return opened
    return open_tui


def test_create_send_edit_save_and_find_it_through_the_palette_after_a_restart(tui, demo):
    s = tui()
    s.keys("C-n")
    s.wait_for("Request: GET")
    s.keys("C-u")
    s.type("POST /echo")
    s.keys("Enter")
    s.wait_for("new · S saves")
    s.keys("Enter")
    s.wait_for("200 OK")

    # Headers: Tab twice from the endpoints list to the request pane, then the Headers tab.
    s.keys("Tab", "Tab")
    s.wait_for("Request Query Headers Body")
    s.keys("]", "]")
    s.wait_for("No headers. a adds one.")
    s.keys("a")
    s.wait_for("New header")
    s.type("X-Trace: e2e-compose")
    s.keys("Enter")
    s.wait_for("e2e-compose")

    # Body: JSON, typed in the editor, checked as it is typed.
    s.keys("]")
    s.wait_for("Body: none")
    s.keys("m")
    s.wait_for("Body: JSON")
    s.keys("Enter")
    s.wait_for("valid · Esc closes")
    s.keys("End", "Left")
    s.type('"name": "Grace')
    s.wait_for("is not closed")
    s.type('"')
    s.wait_for("✓ valid")
    s.keys("Escape")
    s.wait_until_gone("valid · Esc closes")
    s.wait_for("Enter edits")  # the Body tab, its editor closed

    # Back to the Preview tab; Enter sends the draft as it is now.
    s.keys("]")
    s.wait_until_gone("Enter edits")
    s.keys("Enter")
    wait_for_exchanges(s, "POST", "New request", 2)
    s.keys("Tab")  # request -> response
    find_in_body(s, "e2e-compose")
    s.wait_for('"X-Trace": "e2e-compose"')
    find_in_body(s, "Grace")
    s.keys("BTab")  # back to the request pane: S saves the draft selected there
    s.wait_for(re.compile(r"Request\s*$", re.M))

    s.keys("S")
    s.wait_for("Save as: Post echo")
    s.keys("C-u")
    s.type("Grace check")
    s.keys("Enter")
    s.wait_for("Saved Users/Grace check")
    saved = demo.collection.read_text()
    assert "Grace check" in saved and "X-Trace: e2e-compose" in saved and "name: Grace" in saved
    assert "List users" in saved
    s.keys("Tab", "Tab", "Tab")  # out of the request pane, where q is a key like any other
    s.keys("q")
    s.wait_for("[exited 0]")

    again = tui()
    again.keys("C-p")
    again.wait_for("Command palette")
    again.type("grace check")
    again.wait_for(re.compile(r"endpoint\s+POST Users/Grace check"))
    again.keys("Enter")
    again.wait_until_gone("Command palette")
    again.keys("Enter")
    again.wait_for("200 OK")
    again.keys("Tab", "Tab", "Tab")  # endpoints -> history -> request -> response
    find_in_body(again, "e2e-compose")
    again.wait_for('"X-Trace": "e2e-compose"')


def wait_for_exchanges(s, method: str, name: str, count: int) -> None:
    """Waits until the History list shows `count` exchanges of that endpoint (a History row
    ends with its environment, status and duration; the Endpoints row has none of them)."""
    pattern = re.compile(rf"{method}\s+{re.escape(name)}\s+\w+\s+\d{{3}}\s+[\d.]+m?s")
    poll(lambda: len(pattern.findall(s.text())) >= count, message=f"{count} exchanges of {name} in History")


def find_in_body(s, text: str) -> None:
    """Searches the response body (the response pane has the focus) and waits for the match."""
    s.keys("/")
    s.wait_for("Search body:")
    s.keys("C-u")  # the field starts with the last search
    s.type(text)
    s.keys("Enter")
    s.wait_for(re.compile(rf'(line matches|lines match) "{re.escape(text)}"'))


def explorer_pid(s) -> int:
    return poll(lambda: s.child_pid("explorer"), message="the explorer process")


def test_a_draft_survives_a_crash_and_is_offered_back(tui, tmp_path):
    s = tui()
    s.keys("C-n")
    s.wait_for("Request: GET")
    s.type("/health/draft")
    s.keys("Enter")
    s.wait_for("new · S saves")
    poll(lambda: list((tmp_path / "state" / "explorer" / "drafts").glob("*.yaml")), message="the drafts file")
    drafts = list((tmp_path / "state" / "explorer" / "drafts").glob("*.yaml"))
    assert len(drafts) == 1
    assert oct(drafts[0].stat().st_mode & 0o777) == "0o600"
    poll(lambda: "/health/draft" in drafts[0].read_text(), message="the draft on disk")
    os.kill(explorer_pid(s), signal.SIGKILL)
    s.wait_for("[exited")

    again = tui()
    again.wait_for("The last session left 1 unsaved draft")
    again.keys("y")
    again.wait_for("Restored 1 draft")
    assert "/health/draft" in again.wait_for("New request")


def test_delete_asks_and_u_brings_the_endpoint_back(tui, demo):
    s = tui()
    select_endpoint(s, "Echo query")
    s.keys("x")
    assert re.search(r"Delete \S*Echo query from demo.yaml\?", s.wait_for("Delete endpoint"))
    s.keys("y")
    s.wait_for("Deleted ")
    poll(lambda: "Echo query" not in demo.collection.read_text(), message="the endpoint gone from the file")
    s.keys("u")
    s.wait_for("Brought back")
    poll(lambda: "Echo query" in demo.collection.read_text(), message="the endpoint back in the file")


def test_the_palette_runs_commands_by_name(tui):
    s = tui()
    s.keys("C-p")
    s.wait_for("Command palette")
    s.type("switch environment")
    s.wait_for(re.compile(r"command\s+Switch environment"))
    s.keys("Enter")
    s.wait_until_gone("Command palette")
    s.wait_for("Switch environment")
    s.keys("2")
    s.wait_for(re.compile(r"env\s+staging"))
