"""The TUI with bodies that are streams: lines before the body completes, live events that
follow the tail, the limit message with what arrived still shown, cancelling mid-stream."""
from __future__ import annotations

import os
import re
import signal
from pathlib import Path

from conftest import poll
from test_tui import send, tui  # noqa: F401  (the fixture)


def test_the_first_lines_show_before_the_body_completes(tui):
    s = tui()
    send(s, "NDJSON feed")  # endless, one line every 200 ms
    text = s.wait_for('"n": 2')
    assert "live ·" in text and "so far" in text
    assert "line 1" in text and "line 2" in text
    s.keys("Escape")
    s.wait_for("cancelled")


def test_events_appear_live_and_the_view_follows_the_tail(tui):
    s = tui(height=24)
    send(s, "Live events")  # endless, one event every 500 ms
    s.wait_for(re.compile(r"tick\s+#1"))
    s.wait_for(re.compile(r"alert\s+#3"))
    # Past a screenful the newest event is still on screen: the view follows the tail.
    text = s.wait_for(re.compile(r"alert\s+#9\b"), timeout=20)
    assert not re.search(r"tick\s+#1\b", text), text
    # The newest event's last line is on screen too.
    assert re.search(r'"n": 9,', text), text
    s.keys("Escape")
    s.wait_for("cancelled")


def test_the_jsonpath_filter_applies_to_each_events_data(tui):
    s = tui(height=30)
    send(s, "Live events")
    s.wait_for(re.compile(r"alert\s+#3"))
    s.keys("f")
    s.wait_for("JSONPath")
    s.type("$.n")
    s.keys("Enter")
    text = s.wait_for(re.compile(r"(\d+) of \1 events match \$\.n"))
    assert re.search(r"tick\s+#1", text), text
    assert '"environment"' not in text, text  # only the matches of each event's data


def test_a_body_past_max_body_stops_with_a_line_and_keeps_what_arrived(tui, tmp_path):
    config = tmp_path / "config" / "explorer" / "config.yaml"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text("max_body: 1M\n")
    s = tui()
    send(s, "Endless body")
    text = s.wait_for("raise max_body in config.yaml")
    assert "body limit" in text
    assert '"endless": true' in text, text  # what arrived is still shown


def open_spool_files(pid: int) -> list[str]:
    """The explorer's spool files a process holds open (they have no name: '(deleted)')."""
    found = []
    for entry in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(entry)
        except OSError:
            continue
        if "explorer-body-" in target:
            found.append(target)
    return found


def test_a_large_body_spools_to_a_file_that_is_gone_after_sigterm_and_after_exit(tui, tmp_path):
    spool_folder = tmp_path / "spool"
    spool_folder.mkdir()
    for ending in ("SIGTERM", "quit"):
        s = tui(process_env={"TMPDIR": str(spool_folder)})
        send(s, "Endless body")
        pid = poll(lambda: s.child_pid("explorer"), message="the explorer process")
        # Past 8 MB the body goes to an unnamed file: open, but with no name in the folder.
        spooled = poll(lambda: open_spool_files(pid), message="a spool file", timeout=60)  # 8 MB first: slow on a loaded machine
        assert all(target.endswith("(deleted)") for target in spooled), spooled
        assert list(spool_folder.iterdir()) == []
        if ending == "SIGTERM":
            os.kill(pid, signal.SIGTERM)
        else:
            s.keys("Escape")
            s.wait_for("cancelled")
            s.keys("q")
        poll(lambda: not Path(f"/proc/{pid}").exists() or "Z" in Path(f"/proc/{pid}/stat").read_text().split()[2],
             message="the explorer to end")
        assert list(spool_folder.iterdir()) == []


def memory_kib(pid: int, field: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise AssertionError(f"no {field} for {pid}")


def test_a_large_json_body_is_shown_whole_without_a_second_copy_in_memory(screen, explorer_bin, demo, tmp_path):
    # About 40 MB of JSON (114 bytes an item), pretty-printed: the printed text would be about
    # twice the body and its line index as much again; lines are printed when drawn instead.
    items = 350_000
    collection = tmp_path / "large.yaml"
    collection.write_text(demo.collection.read_text()
                          + f'  - name: JSON 40 MB\n    path: /large\n    query: {{ items: "{items}" }}\n')
    # The history's copy of an exchange (5 MB, full-text indexed) costs the same whatever the
    # body's size: a small cap keeps it out of this measure of the body's own memory.
    s = screen([str(explorer_bin), str(collection)], width=120, height=36, env={"EXPLORER_HISTORY_BODY_CAP": "64K"})
    s.wait_for("Endpoints")
    pid = poll(lambda: s.child_pid("explorer"), message="the explorer process")
    idle = memory_kib(pid, "VmRSS")
    send(s, "JSON 40 MB")
    s.wait_for('"id": 1,')
    s.wait_until_gone("so far", timeout=120)
    grown = (memory_kib(pid, "VmHWM") - idle) * 1024
    # Before, the printed text, its index and the body took 4-5 times the body.
    assert grown < 114 * items, f"peak memory grew by {grown / 1e6:.0f} MB for a 40 MB body"
    # The whole body is there, printed to its last line.
    s.keys("Tab", "Tab", "Tab")
    s.wait_for(re.compile(r"Response\s*$", re.M))
    s.keys("G")
    s.wait_for(f'"id": {items},')
    # And searched whole.
    s.keys("/")
    s.wait_for("Search body:")
    s.type("item 349999")
    s.keys("Enter")
    s.wait_for("1 line matches")
