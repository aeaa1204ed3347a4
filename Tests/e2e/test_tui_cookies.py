"""The TUI's cookie jar in a real terminal (tmux) against the real demo API: a cookie the
server sets is sent back, listed masked in the Cookies panel (C), deleted there (x), and kept
across a restart in the state folder."""
from __future__ import annotations

import json
import re

from test_tui import send


def collection(tmp_path, demo):
    path = tmp_path / "cookies.yaml"
    path.write_text(f"""
name: Cookies
environments:
  - name: local
    base_url: {demo.url("local", "")}
endpoints:
  - name: Set session
    path: /cookies/set
    query: {{ session: s3ss10n-value, theme: dark-mode }}
  - name: Show cookies
    path: /cookies
""")
    return path


def test_a_cookie_set_is_sent_back_listed_masked_deleted_and_kept(explorer_bin, tmp_path, demo, screen):
    path = collection(tmp_path, demo)
    s = screen([str(explorer_bin), str(path)], width=120, height=36)
    s.wait_for("Show cookies")
    send(s, "Set session")
    s.wait_for('"set"')
    send(s, "Show cookies")
    s.wait_for(re.compile(r'"session":\s+"s3ss10n-value"'))

    s.keys("C")
    text = s.wait_for("Cookies of local")
    s.wait_for("theme=••••••")
    text = s.wait_for("session=••••••")
    assert "s3ss10n-value" not in text.split("Cookies of local", 1)[1]
    assert "HttpOnly SameSite=Lax" in text and "until " in text
    s.keys("x")
    s.wait_for("Deleted the cookie session of 127.0.0.1.")
    s.wait_until_gone("session=••••••")
    s.wait_for("theme=••••••")
    s.keys("Escape")
    s.wait_until_gone("Cookies of local")
    s.keys("q")
    s.wait_for("[exited 0]")

    kept = json.loads((tmp_path / "state" / "explorer" / "cookies.json").read_text())
    assert [cookie["name"] for cookie in kept[str(path)]["local"]] == ["theme"]

    again = screen([str(explorer_bin), str(path)], width=120, height=36)
    again.wait_for("Show cookies")
    send(again, "Show cookies")
    again.wait_for(re.compile(r'"theme":\s+"dark-mode"'))
    assert "s3ss10n-value" not in again.text()
    again.keys("C")
    again.wait_for("theme=••••••")
    again.keys("X")
    again.wait_for("Deleted the 1 cookie of local.")
    again.wait_for("No cookies: none was set in local yet.")
