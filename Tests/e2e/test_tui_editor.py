"""`E` with a real terminal editor (vi): it owns the terminal while it runs, as a shell's
foreground job, and hands it back clean (no key, no terminal answer left over)."""
from __future__ import annotations

import pytest

from conftest import require_tool
from test_tui import select_endpoint, tui  # noqa: F401 (a fixture)


@pytest.fixture(autouse=True)
def vi() -> str:
    """Every test here runs a real vi."""
    return require_tool("vi", package="vim-tiny")


def edit_path_in_vi(s) -> None:
    """In vi on the endpoint's text: the path to /users/5, then write and quit."""
    s.wait_for("path: /users/{{user_id}}")
    s.type(":%s#/users/{{user_id}}#/users/5#")
    s.keys("Enter")
    s.wait_for("path: /users/5")
    s.type(":wq")
    s.keys("Enter")


def test_vi_edits_and_saves_a_body_and_the_explorer_takes_the_terminal_back(tui):
    # No VISUAL, no EDITOR: vi, as a newcomer has it.
    s = tui()
    select_endpoint(s, "Get user")
    s.keys("E")
    edit_path_in_vi(s)
    text = s.wait_for("edited · S saves")
    assert "Rename to" not in text and "3;1R" not in text  # no terminal answer read as keys
    s.keys("Enter")
    s.wait_for('"name": "Ken Thompson"')
    s.keys("q")
    s.wait_for("[exited 0]")


def test_ctrl_z_in_vi_without_a_shell_to_return_to_keeps_vi_running(tui):
    # The pane has no job-control shell: stopping is refused, and vi goes on.
    s = tui()
    select_endpoint(s, "Get user")
    s.keys("E")
    s.wait_for("path: /users/{{user_id}}")
    s.keys("C-z")
    # vi redraws on Ctrl-L once it is continued. It switches the terminal back with TCSAFLUSH,
    # which drops a key typed before that, so Ctrl-L is pressed again until vi shows its text
    # (as a user would on a blank screen).
    for _ in range(15):
        s.keys("C-l")
        try:
            s.wait_for("path: /users/{{user_id}}", timeout=1.0)
            break
        except AssertionError:
            continue
    edit_path_in_vi(s)
    s.wait_for("edited · S saves")


def test_vi_from_an_interactive_shell_is_the_foreground_job_and_ctrl_z_suspends_both(explorer_bin, demo, screen):
    s = screen(["bash", "--norc", "--noprofile", "-i"], width=120, height=36, env={"PS1": "shell$ "})
    s.wait_for("shell$")
    s.type(f"{explorer_bin} {demo.collection}")
    s.keys("Enter")
    s.wait_for("Endpoints")
    select_endpoint(s, "Get user")
    s.keys("E")
    s.wait_for("path: /users/{{user_id}}")
    # vi drops what is typed while it still sets up the terminal: a command it answers first.
    s.type(":echo 'ready'")
    s.keys("Enter")
    s.wait_for("ready")
    # Ctrl-Z reaches vi, which stops; the explorer stops with it and the shell has the terminal.
    s.keys("C-z")
    s.wait_for("Stopped")
    s.type("fg")
    s.keys("Enter")
    s.keys("C-l")
    edit_path_in_vi(s)
    s.wait_for("edited · S saves")
    s.keys("Enter")
    s.wait_for('"name": "Ken Thompson"')
    s.keys("q")
    s.wait_for("shell$")
