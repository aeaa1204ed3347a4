"""How the TUI starts: `explorer open FILE` takes the same short way as `explorer FILE`, and the
HTTP client, made when the first request needs it, sends that request."""
from __future__ import annotations

import re


def test_open_file_opens_the_collection_and_its_first_request_is_answered(explorer_bin, demo, screen):
    s = screen([str(explorer_bin), "open", str(demo.collection)], width=120, height=36)
    text = s.wait_for("History")
    for expected in ["Environments", "local", "Endpoints", "Get user"]:
        assert expected in text
    s.keys("/")
    s.wait_for("Filter endpoints:")
    s.type("Get user")
    s.keys("Enter")
    s.wait_until_gone("Filter endpoints:")
    s.keys("Enter")
    text = s.wait_for('"name": "Ada Lovelace"')
    assert "200 OK" in text
    s.wait_for(re.compile(r"\d\d:\d\d GET\s+Get user"))
    s.keys("q")
    s.wait_for("[exited 0]")


def test_open_with_an_option_still_goes_through_the_parser(explorer_bin, demo, screen):
    s = screen([str(explorer_bin), "open", str(demo.collection), "--env", "staging"], width=120, height=36)
    s.wait_for(re.compile(r"env\s+staging"))
    s.keys("/")
    s.wait_for("Filter endpoints:")
    s.type("Get user")
    s.keys("Enter")
    s.wait_until_gone("Filter endpoints:")
    s.keys("Enter")
    # The staging environment's answer names its server.
    s.wait_for("staging.example.com")
    s.keys("q")
    s.wait_for("[exited 0]")
