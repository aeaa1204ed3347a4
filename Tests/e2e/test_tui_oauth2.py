"""OAuth2 in a real terminal (tmux) against the demo's authorization server: a request with
`auth: oauth2` gets its token, the Tokens panel (T) lists it masked with its expiry, and
dropping it there makes the next request obtain a new one."""
from __future__ import annotations

import json
import re

from test_tui import send


def test_the_token_is_obtained_listed_masked_and_dropped(explorer_bin, tmp_path, demo, screen):
    s = screen([str(explorer_bin), str(demo.collection)], width=140, height=40)
    s.wait_for("Endpoints")
    send(s, "Me (client credentials)")
    s.wait_for(re.compile(r'"username"\s*:\s*"ada"'))
    tokens = tmp_path / "state" / "explorer" / "tokens.json"
    (environments,) = json.loads(tokens.read_text()).values()
    (token,) = environments["local"].values()

    s.keys("T")
    text = s.wait_for("explorer-demo  Bearer ••••••  client_credentials")
    assert "OAuth2 tokens of local" in text and "refreshable" in text
    assert token["accessToken"] not in text and token["refreshToken"] not in text
    s.keys("x")
    s.wait_for("Dropped the token; the next request obtains a new one.")
    s.wait_for("No tokens: no oauth2 request was sent in local yet.")
    assert list(json.loads(tokens.read_text()).values())[0]["local"] == {}
    s.keys("Escape")
    s.wait_until_gone("OAuth2 tokens of local")
    s.keys("q")
    s.wait_for("[exited 0]")


def test_the_device_code_is_shown_in_an_overlay_while_the_request_waits(explorer_bin, tmp_path, demo, screen):
    # The "browser" is the user approving on another device: the demo signs the code in.
    approve = tmp_path / "approve.sh"
    approve.write_text('#!/bin/sh\nsleep 1\nexec curl -s -o /dev/null "$1"\n')
    approve.chmod(0o755)
    s = screen([str(explorer_bin), str(demo.collection)], width=140, height=40, env={"BROWSER": str(approve)})
    s.wait_for("Endpoints")
    send(s, "Me (device code)")
    text = s.wait_for("OAuth2 sign-in")
    assert re.search(r"enter the code [A-Z]{4}-[A-Z]{4}", text), text
    s.keys("Escape")
    s.wait_for(re.compile(r'"username"\s*:\s*"ada"'))
