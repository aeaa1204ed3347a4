"""`auth: oauth2` end to end: the real binary obtains tokens from the demo's authorization server
by every interactive and non-interactive grant, keeps them in a private file for the next
process, and keeps them (and the client secret) out of what it shows, records and exports."""
from __future__ import annotations

import json
import os
import stat
from pathlib import Path

from test_send import send


def browser(tmp_path: Path) -> dict[str, str]:
    """A $BROWSER that opens the URL as a browser would: following its redirects."""
    script = tmp_path / "browser.sh"
    script.write_text('#!/bin/sh\nexec curl -sL -o /dev/null "$1"\n')
    script.chmod(0o755)
    return {"BROWSER": str(script)}


def test_client_credentials_token_is_cached_privately_and_reused(explorer_bin, tmp_path, demo):
    first = send(explorer_bin, tmp_path, demo, "OAuth2/Me (client credentials)", "--json", "--check-status")
    assert first.returncode == 0, first.stderr
    assert json.loads(first.stdout)["status"] == 200
    tokens = tmp_path / "state" / "explorer" / "tokens.json"
    assert stat.S_IMODE(os.stat(tokens).st_mode) == 0o600
    cached = json.loads(tokens.read_text())
    (environments,) = cached.values()
    (token,) = environments["local"].values()
    second = send(explorer_bin, tmp_path, demo, "OAuth2/Me (client credentials)", "--check-status")
    assert second.returncode == 0, second.stderr
    again = json.loads(tokens.read_text())
    assert again == cached, "the second process uses the cached token"
    # Neither the token nor the client secret is in the history or the exported curl command.
    history = (tmp_path / "state" / "explorer" / "history.sqlite").read_bytes()
    assert token["accessToken"].encode() not in history
    assert b"demo-client-secret" not in history
    exported = send(explorer_bin, tmp_path, demo, "OAuth2/Me (client credentials)", "--json")
    assert b"demo-client-secret" not in exported.stdout


def test_the_device_code_grant_prints_the_code_and_waits_for_the_user(explorer_bin, tmp_path, demo):
    result = send(explorer_bin, tmp_path, demo, "OAuth2/Me (device code)", "--check-status", env=browser(tmp_path))
    assert result.returncode == 0, result.stderr
    assert "and enter the code" in result.stderr
    assert json.loads(result.stdout)["username"] == "ada"


def test_the_authorization_code_grant_signs_in_through_the_browser(explorer_bin, tmp_path, demo):
    result = send(explorer_bin, tmp_path, demo, "OAuth2/Me (authorization code)", "--check-status", env=browser(tmp_path))
    assert result.returncode == 0, result.stderr
    assert "code_challenge_method=S256" in result.stderr
    assert "sign in in the browser that opened" in result.stderr
    assert json.loads(result.stdout)["username"] == "ada"


def test_a_wrong_client_secret_is_one_clear_sentence(explorer_bin, tmp_path, demo):
    result = send(explorer_bin, tmp_path, demo, "OAuth2/Me (client credentials)", "--var", "client_secret=not-the-s3cret")
    assert result.returncode == 1
    assert "invalid_client" in result.stderr and "Check client_id and client_secret" in result.stderr
    assert "not-the-s3cret" not in result.stderr
    assert ".)" not in result.stderr
