"""A large collection's parse kept in the state folder (CollectionCache): the real binary sends
from it, an edit is never answered from the old entry, a damaged entry is parsed again, the
entry is private, and EXPLORER_COLLECTION_CACHE=off keeps nothing."""
from __future__ import annotations

import os
import stat
import subprocess
from pathlib import Path

# CollectionCache.minimumBytes: collections smaller than this are not kept.
MINIMUM_BYTES = 256 << 10


def large_collection(base_url: str, name: str = "Ping") -> str:
    """A collection of more than MINIMUM_BYTES: one endpoint the demo answers, then fillers."""
    text = (
        "name: Large\n"
        "environments:\n"
        f"  - name: local\n    base_url: {base_url}\n"
        "endpoints:\n"
        f"  - name: {name}\n    path: /users\n    headers: {{ Accept: application/json }}\n"
    )
    index = 0
    while len(text.encode()) < MINIMUM_BYTES + 4096:
        text += (f"  - name: Filler {index}\n    method: POST\n    path: /fillers/{index}\n"
                 f"    json: {{ index: {index}, label: \"filler {index}\" }}\n")
        index += 1
    return text


def send(explorer_bin: Path, folder: Path, endpoint: str, **extra: str) -> subprocess.CompletedProcess:
    environment = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(folder),
        "XDG_STATE_HOME": str(folder / "state"),
        "LANG": "C.UTF-8",
        **extra,
    }
    return subprocess.run(
        [str(explorer_bin), "send", "--collection", str(folder / "api.yaml"), endpoint],
        capture_output=True, text=True, env=environment, cwd=str(folder), stdin=subprocess.DEVNULL, timeout=60,
    )


def entries(folder: Path) -> list[Path]:
    return sorted((folder / "state" / "explorer" / "collections").glob("*.cache"))


def test_a_large_collection_is_sent_from_its_kept_parse_and_an_edit_is_parsed_again(explorer_bin, tmp_path, demo):
    collection = tmp_path / "api.yaml"
    collection.write_text(large_collection(demo.urls["local"]))

    first = send(explorer_bin, tmp_path, "Ping")
    assert first.returncode == 0, first.stderr
    [entry] = entries(tmp_path)
    assert stat.S_IMODE(entry.stat().st_mode) == 0o600
    assert stat.S_IMODE(entry.parent.stat().st_mode) == 0o700
    written = entry.stat().st_mtime_ns

    second = send(explorer_bin, tmp_path, "Ping")
    assert second.returncode == 0, second.stderr
    assert second.stdout == first.stdout

    # Renamed, the same size and time: the text's digest tells, not the file's time.
    original = collection.stat()
    collection.write_text(large_collection(demo.urls["local"], name="Pong"))
    os.utime(collection, ns=(original.st_atime_ns, original.st_mtime_ns))
    renamed = send(explorer_bin, tmp_path, "Pong")
    assert renamed.returncode == 0, renamed.stderr
    gone = send(explorer_bin, tmp_path, "Ping")
    assert gone.returncode != 0
    assert 'No endpoint is named "Ping"' in gone.stderr
    assert entries(tmp_path) == [entry]
    assert entry.stat().st_mtime_ns != written


def test_a_damaged_entry_is_parsed_again(explorer_bin, tmp_path, demo):
    (tmp_path / "api.yaml").write_text(large_collection(demo.urls["local"]))
    assert send(explorer_bin, tmp_path, "Ping").returncode == 0
    [entry] = entries(tmp_path)
    data = entry.read_bytes()
    entry.write_bytes(data[: len(data) // 2])
    again = send(explorer_bin, tmp_path, "Ping")
    assert again.returncode == 0, again.stderr
    assert len(entry.read_bytes()) == len(data)


def test_the_cache_switched_off_keeps_nothing(explorer_bin, tmp_path, demo):
    (tmp_path / "api.yaml").write_text(large_collection(demo.urls["local"]))
    result = send(explorer_bin, tmp_path, "Ping", EXPLORER_COLLECTION_CACHE="off")
    assert result.returncode == 0, result.stderr
    assert entries(tmp_path) == []


def test_a_small_collection_is_not_kept(explorer_bin, tmp_path, demo):
    (tmp_path / "api.yaml").write_text(large_collection(demo.urls["local"])[:600].rsplit("\n  - name: Filler", 1)[0] + "\n")
    result = send(explorer_bin, tmp_path, "Ping")
    assert result.returncode == 0, result.stderr
    assert entries(tmp_path) == []


def test_the_tui_reads_an_edit_of_one_endpoint_and_sends_it(explorer_bin, tmp_path, demo, screen):
    """A save that changes one endpoint of a large collection is read alone (CollectionPatch):
    the TUI lists and sends the edited endpoint, a broken edit is said with its line, and the
    fix after it reads again."""
    collection = tmp_path / "api.yaml"
    text = large_collection(demo.urls["local"])
    collection.write_text(text)
    s = screen([str(explorer_bin), str(collection)], width=120, height=36)
    s.wait_for("Filler 1")
    s.keys("/")
    s.wait_for("Filter endpoints:")
    s.type("Ping")
    s.keys("Enter")
    s.wait_until_gone("Filter endpoints:")

    edited = text.replace("  - name: Ping\n    path: /users\n", "  - name: Pong\n    path: /users/3\n")
    collection.write_text(edited)
    s.wait_for("Reloaded api.yaml")
    s.keys("/")
    s.wait_for("Filter endpoints:")
    s.type("Pong")
    s.keys("Enter")
    s.wait_until_gone("Filter endpoints:")
    s.keys("Enter")
    s.wait_for('"name": "Margaret Hamilton"')

    # A broken endpoint far down the file: the whole parse says where (the line after it,
    # where the open flow sequence is found unclosed).
    broken_line = edited[: edited.index("  - name: Filler 700\n")].count("\n") + 2
    collection.write_text(edited.replace("  - name: Filler 700\n", "  - name: [Filler 700\n"))
    s.wait_for("api.yaml does not load")
    assert f"api.yaml:{broken_line}:" in s.wait_for("the YAML is malformed")
    collection.write_text(edited.replace("    path: /fillers/700\n", "    path: /fillers/seven-hundred\n"))
    s.wait_for("Reloaded api.yaml")
