"""Problems in the collection file stay on screen until it is fixed (a typo introduced while
the TUI runs, a reload that fails), and a start-up warning is read whole."""
from __future__ import annotations

import re

from test_tui import tui  # noqa: F401 (a fixture)


def test_a_typo_made_while_the_tui_runs_is_still_on_screen_two_keys_later(tui, demo):
    # Wide enough for the whole warning after pytest's temporary path (pytest-NNN/test_…0/).
    s = tui(width=180)
    original = demo.collection.read_text()
    assert '        query: { page: "1", per_page: "{{per_page}}" }' in original
    demo.collection.write_text(original.replace('        query: { page: "1"', '        qurey: { page: "1"', 1))
    s.wait_for("with 1 problem")
    s.keys("j")
    s.keys("k")
    text = s.wait_for("⚠ 1 problem")
    # The problems line keeps the first one in view (cut with … when the path is long) ...
    assert re.search(r'demo\.yaml:\d+:\d+: warning: unknown key "qurey', text), text
    # ... and ! shows it whole, with its did-you-mean.
    s.keys("!")
    panel = s.wait_for("Problems in demo.yaml")
    assert 'warning: unknown' in panel and 'key "qurey" in endpoint "List users" is ignored; did you mean "query"?' in panel, panel
    s.keys("Escape")
    demo.collection.write_text(original)
    s.wait_until_gone("⚠ 1 problem")


def test_a_reload_that_fails_names_the_likely_typo_and_stays_while_the_old_file_is_used(tui, demo):
    s = tui(width=160)
    original = demo.collection.read_text()
    demo.collection.write_text(original.replace("        path: /users/{{user_id}}\n", "        paht: /users/{{user_id}}\n", 1))
    s.wait_for("does not load")
    s.keys("j")
    s.keys("j")
    text = s.wait_for('endpoint "Get user" has no "path", which is required')
    assert "Get user" in text and "⚠ 1 problem" in text  # the last version that loaded stays in use
    s.keys("!")
    panel = s.wait_for("the last version that loaded is in use")
    assert '"paht"' in panel, panel
    s.keys("Escape")
    demo.collection.write_text(original)
    s.wait_until_gone("⚠ 1 problem")
