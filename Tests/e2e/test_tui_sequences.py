"""Sequences in the TUI, in a real terminal (tmux) against the real demo API: `requires:` sent
first on Enter, the variables view (`v`) with where each value came from and `x` to clear a
captured one, and `Ctrl-R` running a folder with `explorer run`'s engine."""
from __future__ import annotations

import json
import re

from conftest import poll
from test_sequences import captures_file
from test_tui import select_endpoint, send, tui  # noqa: F401  (the fixture)


def test_enter_sends_the_login_first_then_the_variables_view_shows_and_clears_the_capture(tui, demo, tmp_path):
    s = tui()
    send(s, "Me after login")
    # The protected call answers only with the login's token: it was captured and used.
    s.wait_for('"username": "ada"')
    # The checks run once the whole body is in, a moment after it shows: wait for them.
    text = s.wait_for("3/3 checks")
    assert "Sent Auth/Login first (session_token, request_id were not captured yet): 200 OK, 5/5 checks" in text
    token = json.loads(captures_file(tmp_path).read_text())[str(demo.collection)]["local"]["session_token"]["value"]
    assert token.startswith("tok-")

    s.keys("v")
    text = s.wait_for(re.compile(r"session_token = •+ +captured from Auth/Login \d\d:\d\d"))
    assert re.search(r"request_id = \S+ +captured from Auth/Login \d\d:\d\d", text)
    assert re.search(r"user = ada +(environment|collection)", text), text
    assert token not in text

    # request_id is the first row (captured ones come first, by name): x clears it.
    s.keys("x")
    s.wait_until_gone("request_id =")
    s.wait_for("Cleared request_id (captured from Auth/Login).")
    stored = json.loads(captures_file(tmp_path).read_text())[str(demo.collection)]["local"]
    assert "request_id" not in stored and stored["session_token"]["value"] == token

    s.keys("Escape")
    s.wait_until_gone("Variables · local")
    # With request_id gone the login is due again: Enter sends it first once more.
    s.keys("Enter")
    s.wait_for("Sent Auth/Login first (request_id was not captured yet)")


def test_the_login_token_a_capture_keeps_as_secret_is_masked_in_the_response_pane(tui, demo, tmp_path):
    s = tui()
    send(s, "Login")
    text = s.wait_for("5/5 checks")
    token = json.loads(captures_file(tmp_path).read_text())[str(demo.collection)]["local"]["session_token"]["value"]
    # The body pane shows the token's place, as history stores it, once the capture calls it secret.
    text = s.wait_for('"token": "••••••"')
    assert token not in text
    assert '"user": "ada"' in text
    s.keys("Tab", "Tab", "Tab")
    s.wait_for(re.compile(r"Response\s*$", re.M))
    s.keys("]", "]")  # Body -> Headers -> Raw
    text = s.wait_for("HTTP/1.1 200 OK")
    assert token not in text and '"token":"••••••"' in text.replace(" ", ""), text


def test_ctrl_r_runs_the_selected_folder_and_shows_the_summary(tui):
    s = tui()
    select_endpoint(s, "Login")
    s.keys("C-r")
    text = s.wait_for(re.compile(r"\d+ requests in [\d.]+ s: \d+ passed"))
    assert "Run · Auth · local" in text
    assert "ENDPOINT" in text
    assert re.search(r"✓\s+Auth/Login\s+200\s+5/5", text)
    assert re.search(r"✓\s+Auth/Me after login\s+200\s+3/3", text)
    # No other folder was run.
    assert "Users/" not in text

    s.keys("Escape")
    s.wait_until_gone("ENDPOINT")
    # The results stay beside each endpoint in the list.
    poll(lambda: re.search(r"Login\s+✓ 5/5", s.text()), message="the result beside Login")


def test_the_history_view_shows_the_checks_a_stored_exchange_had(explorer_bin, tui, demo, tmp_path):
    from test_send import send as cli_send
    login = cli_send(explorer_bin, tmp_path, demo, "Auth/Login", "--env", "local")
    assert login.returncode == 0, login.stderr
    s = tui()
    s.wait_for(re.compile(r"POST\s+Login\s+local\s+200"))
    s.keys("Tab")  # endpoints -> history
    s.wait_for(re.compile(r"\s+History\s*$", re.M))
    s.keys("Enter")  # opens the stored exchange
    text = s.wait_for("5/5 checks")
    assert "Checks" in text
