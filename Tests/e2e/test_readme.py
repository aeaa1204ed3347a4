"""The README's first steps, followed in a real terminal against `explorer demo`.

The keys, names and the screen are read from README.md itself, so a README that drifts from
what the demo does fails here: the picture above "First steps" is compared line by line with
the screen after step 1 (ports and durations aside), and each step's keys are the ones the
README gives.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[2] / "README.md"


def readme() -> str:
    return README.read_text()


def first_steps() -> str:
    text = readme()
    start = text.index("## First steps")
    return " ".join(text[start:text.index("\n## ", start + 1)].split())


def picture() -> list[str]:
    """The screen the README shows: the fenced block that starts with the title bar."""
    for block in re.findall(r"^```[^\n]*\n(.*?)^```", readme(), re.S | re.M):
        if block.startswith(" explorer · "):
            return block.rstrip("\n").split("\n")
    pytest.fail("README.md shows no screen (a fenced block starting with the title bar)")


def step(pattern: str) -> re.Match:
    found = re.search(pattern, first_steps())
    assert found, f"README's first steps no longer say {pattern!r}:\n{first_steps()}"
    return found


def normalized(line: str) -> str:
    """A screen line without what changes from run to run: the demo's ports, the durations, and
    the status line's end (it moves with the duration's digits, where the pane cuts it)."""
    line = re.sub(r"127\.0\.0\.1:\d+", "127.0.0.1:PORT", line)
    line = re.sub(r"\b\d+ ?ms\b", "N ms", line)
    if " · HTTP/1.1 · " in line:
        line = line[:line.index(" · HTTP/1.1 · ")]
    return " ".join(line.split())


def history_rows(screen: str) -> list[str]:
    lines = screen.split("\n")
    top = next(i for i, line in enumerate(lines) if line.startswith("╭ History"))
    rows = []
    for line in lines[top + 1:]:
        if line.startswith("╰"):
            break
        row = line[1:line.index("│", 1)].strip()
        if row:
            rows.append(row)
    return rows


def select_and_send(s, name: str) -> None:
    s.keys("/")
    s.wait_for("Filter endpoints:")
    s.keys("C-u")
    s.type(name)
    s.keys("Enter")
    s.wait_until_gone("Filter endpoints:")
    s.keys("Enter")


def test_the_first_steps_do_what_the_readme_says(explorer_bin, screen):
    shown = picture()
    width, height = max(len(line) for line in shown), len(shown)
    s = screen([str(explorer_bin), "demo"], width=width, height=height)
    s.wait_for("History")

    # 1. `/Get user`, `Enter`, `Enter`: the screen is the README's.
    typed = step(r"as you type: `/([^`]+)`, `Enter`, `Enter` sends ([^,]+), and the screen is the one above").group(1)
    select_and_send(s, typed)
    s.wait_for('"username": "ada"')
    screen_now = s.wait_for(re.compile(r"History ─+╮.*\n│\S.* 200 ", re.S))
    assert [normalized(line) for line in screen_now.rstrip("\n").split("\n")] == [normalized(line) for line in shown]

    # 2. `e`, `2` for staging, `Enter`: the other user; `e`, `3`: production asks first.
    staging = step(r"Press `e`, then `(\d)` for `(\w+)`, and `Enter` sends the same endpoint again")
    users = step(r"`/users/1` is ([^`]+?) on `local`, `/users/2` is ([^`]+?) on `(\w+)`")
    assert users.group(3) == staging.group(2)
    assert f'"name": "{users.group(1)}"' in screen_now
    s.keys("e")
    s.wait_for("Switch environment")
    s.keys(staging.group(1))
    s.wait_for(f"env  {staging.group(2)}")
    s.keys("Enter")
    s.wait_for(f'"name": "{users.group(2)}"')
    production = step(r"`e`, `(\d)` picks `(\w+)`: there `Enter` asks before it sends anything \(`(\w)` keeps it unsent\)")
    s.keys("e")
    s.wait_for("Switch environment")
    s.keys(production.group(1))
    s.wait_for(f"env  {production.group(2)}")
    s.keys("Enter")
    s.wait_for(f"Send to {production.group(2)}?")
    s.keys(production.group(3))
    s.wait_until_gone(f"Send to {production.group(2)}?")
    assert len(history_rows(s.text())) == 2, "production was not sent"

    # 3. Back to local, the 422 with its summary; History opens an earlier exchange; d, d compares.
    local = step(r"`e`, `(\d)` for `local` again, and send `([^`]+)`")
    s.keys("e")
    s.wait_for("Switch environment")
    s.keys(local.group(1))
    s.wait_for("env  local")
    select_and_send(s, local.group(2))
    summary = s.wait_for("422 Unprocessable")
    assert "2 fields are invalid" in summary and "• email: must be an email address" in summary
    step(r"`Tab` to the History pane and `↓` opens earlier exchanges without sending")
    s.keys("Tab")
    s.wait_for(re.compile(r"History\s*$"))
    s.keys("Down")
    opened = s.wait_for(f'"name": "{users.group(2)}"')
    assert len(history_rows(opened)) == 3, "opening an exchange sent nothing"
    step(r"`d` on one and `d` on another compares them")
    s.keys("d")
    s.wait_for("press d on another entry to compare")
    s.keys("Down", "d")
    s.wait_for(re.compile(r"Compare #\d+ staging ↔ #\d+ local"))
