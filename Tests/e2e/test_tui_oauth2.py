"""OAuth2 in a real terminal (tmux) against the demo's authorization server: a request with
`auth: oauth2` gets its token, the Tokens panel (T) lists it masked with its expiry, and
dropping it there makes the next request obtain a new one."""
from __future__ import annotations

import json
import re

from conftest import poll
from test_compose import wait_for_exchanges
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


def test_the_authorization_code_flow_runs_in_the_tui_and_the_token_is_refreshed_on_expiry(explorer_bin, tmp_path, demo, screen):
    # Tokens of 5 s: each send finds the cached one within 30 s of expiring and refreshes it.
    path = tmp_path / "oauth.yaml"
    path.write_text(f"""
name: OAuth
environments:
  - name: local
    base_url: {demo.url("local", "")}
endpoints:
  - name: Me
    path: /me
    auth:
      type: oauth2
      grant: authorization_code
      token_url: "{demo.url("local", "/oauth/token?expires_in=5")}"
      authorization_url: "{demo.url("local", "/oauth/authorize")}"
      client_id: explorer-demo
""")
    browser = tmp_path / "browser.sh"
    browser.write_text('#!/bin/sh\nexec curl -sL -o /dev/null "$1"\n')
    browser.chmod(0o755)
    s = screen([str(explorer_bin), str(path)], width=140, height=40, env={"BROWSER": str(browser)})
    s.wait_for("Endpoints")
    send(s, "Me")
    text = s.wait_for("OAuth2 sign-in")
    assert "sign in in the browser that opened" in text
    s.keys("Escape")
    s.wait_for(re.compile(r'"username"\s*:\s*"ada"'))
    tokens = tmp_path / "state" / "explorer" / "tokens.json"
    (first,) = json.loads(tokens.read_text())[str(path)]["local"].values()

    # Enter sends again (the endpoint is still selected): the token is refreshed, no sign-in.
    s.keys("Enter")

    def refreshed():
        (current,) = json.loads(tokens.read_text())[str(path)]["local"].values()
        return current if current["accessToken"] != first["accessToken"] else None

    current = poll(refreshed, message="the refreshed token in tokens.json")
    assert current["refreshToken"] != first["refreshToken"], "the demo rotates refresh tokens"
    wait_for_exchanges(s, "GET", "Me", 2)
    assert "OAuth2 sign-in" not in s.text(), "a refresh needs no sign-in"
