"""A large collection is read behind a first frame that says so: the screen comes at once, the
endpoints follow, and a file that does not load is still said on stderr, after the screen."""
from __future__ import annotations

from pathlib import Path

from test_tui import select_endpoint


def write_large_collection(folder: Path, endpoints: int = 2000, tail: str = "") -> Path:
    """A collection of `endpoints` endpoints in 20 folders, well over the 256 KB read behind the frame."""
    lines = [
        "name: Large API",
        "environments:",
        "  - name: local",
        "    base_url: http://127.0.0.1:9/v1",
        "  - name: staging",
        "    base_url: http://127.0.0.1:9/v2",
        "endpoints:",
    ]
    per_folder = endpoints // 20
    for folder_number in range(20):
        lines += [f"  - folder: Folder {folder_number:02}", "    endpoints:"]
        for number in range(per_folder):
            index = folder_number * per_folder + number
            lines += [
                f"      - name: Item {index:04}",
                f"        path: /folders/{folder_number}/items/{index}",
                "        headers: { Accept: application/json }",
                f"        description: The item {index} of folder {folder_number}, with text enough to make a large file of it.",
            ]
    path = folder / "large.yaml"
    path.write_text("\n".join(lines) + "\n" + tail)
    assert path.stat().st_size > 256 * 1024
    return path


def test_a_large_collection_opens_and_lists_every_endpoint(explorer_bin, screen, tmp_path):
    collection = write_large_collection(tmp_path)
    s = screen([str(explorer_bin), str(collection)], width=120, height=36)
    text = s.wait_for(" 2000 ")
    assert "Large API" in text and "Folder 00" in text and "Item 0000" in text and "local" in text, text
    # The last endpoint of the file is there too.
    select_endpoint(s, "Item 1999")
    assert "GET    Item 1999" in s.wait_for("1 of 2000")
    s.keys("q")
    s.wait_for("[exited 0]")


def test_a_large_collection_that_does_not_load_is_said_after_the_screen_ends(explorer_bin, screen, tmp_path):
    collection = write_large_collection(tmp_path, tail="  - name: Broken\n    path: [unclosed\n")
    s = screen([str(explorer_bin), str(collection)], width=160, height=36)
    text = s.wait_for("[exited 2]")
    assert "large.yaml:" in text, text
    # The screen has ended: the shell's lines are back, with no pane of the explorer left.
    assert "Endpoints" not in text, text


def test_a_large_collection_without_the_environment_asked_for_names_those_it_has(explorer_bin, screen, tmp_path):
    collection = write_large_collection(tmp_path)
    s = screen([str(explorer_bin), str(collection), "--env", "prod"], width=160, height=36)
    text = s.wait_for("[exited 2]")
    assert 'There is no environment "prod"' in text and "local, staging" in text, text
