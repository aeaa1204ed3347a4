"""The explorer TUI, driven in a real terminal (tmux) against the real demo API."""
from __future__ import annotations

import os
import re
import signal
import subprocess

import pytest

from conftest import poll


@pytest.fixture
def tui(explorer_bin, demo, screen):
    """The TUI on the demo collection, served by a separate `explorer demo --serve-only`."""
    def open_tui(width: int = 120, height: int = 36, env: str | None = None, process_env: dict[str, str] | None = None):
        command = [str(explorer_bin), str(demo.collection)] + (["--env", env] if env else [])
        opened = screen(command, width=width, height=height, env=process_env)
        opened.wait_for("Endpoints")
        return opened
    return open_tui


def select_endpoint(tui_screen, name: str) -> None:
    """Filters the endpoints list to `name` and leaves the selection on it."""
    tui_screen.keys("/")
    tui_screen.wait_for("Filter endpoints:")
    tui_screen.type(name)
    tui_screen.keys("Enter")
    tui_screen.wait_until_gone("Filter endpoints:")


def send(tui_screen, name: str) -> None:
    select_endpoint(tui_screen, name)
    tui_screen.keys("Enter")


def test_demo_opens_on_its_environments_and_endpoints(explorer_bin, screen):
    demo_screen = screen([str(explorer_bin), "demo"], width=120, height=36)
    text = demo_screen.wait_for("History")
    for expected in ["Environments", "local", "staging", "production", "protected", "Endpoints", "Users", "Get user", "History"]:
        assert expected in text
    demo_screen.keys("q")
    demo_screen.wait_for("[exited 0]")


def test_sending_the_selected_endpoint_shows_status_and_body(tui):
    s = tui()
    send(s, "Get user")
    # The status shows as soon as the head arrives; the body follows.
    text = s.wait_for('"name": "Ada Lovelace"')
    assert "200 OK" in text
    s.wait_for(re.compile(r"\d\d:\d\d GET\s+Get user"))


def test_switching_environment_live_changes_the_answer(tui):
    s = tui()
    send(s, "Get user")
    s.wait_for("Ada Lovelace")
    s.keys("e")
    s.wait_for("Switch environment")
    s.keys("2")
    s.wait_for(re.compile(r"env\s+staging"))
    s.keys("Enter")
    text = s.wait_for("staging.example.com")
    assert "Ada Lovelace" not in text


def test_a_protected_environment_asks_before_sending(tui):
    s = tui(env="production")
    send(s, "Get user")
    s.wait_for("Send to production?")
    s.keys("n")
    s.wait_for("Not sent.")
    s.keys("Enter")
    s.wait_for("Send to production?")
    s.keys("y")
    s.wait_for("200 OK")


def test_a_problem_json_error_shows_its_summary(tui):
    s = tui()
    send(s, "Create invalid user")
    text = s.wait_for("Your request is not valid")
    assert "422 Unprocessable" in text
    assert "• name: must be a non-empty string" in text


def test_an_unreachable_server_says_what_to_do(explorer_bin, tmp_path, screen):
    import socket
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    collection = tmp_path / "down.yaml"
    collection.write_text(
        "name: Down\nenvironments:\n  - name: local\n    base_url: http://127.0.0.1:%d\nendpoints:\n  - name: Ping\n    path: /ping\n" % port)
    s = screen([str(explorer_bin), str(collection)])
    s.wait_for("Ping")
    s.keys("Enter")
    s.wait_for("connection refused")
    s.wait_for(f"connection refused by 127.0.0.1:{port}")


def test_a_slow_request_can_be_cancelled(tui):
    s = tui()
    send(s, "Slow response")
    s.wait_for("waiting for GET")
    s.keys("Escape")
    s.wait_for("cancelled")


def test_a_history_entry_opens_without_sending(tui):
    s = tui()
    send(s, "Get user")
    s.wait_for("200 OK")
    send(s, "Missing user")
    s.wait_for("404 Not Found")
    s.keys("Tab")  # endpoints -> history
    s.wait_for(re.compile(r"History\s+$|History", re.M))
    s.keys("Down")
    text = s.wait_for("Ada Lovelace")
    assert "200 OK" in text


def test_searching_the_body_counts_matches(tui):
    s = tui()
    send(s, "List users")
    s.wait_for("200 OK")
    s.keys("Tab", "Tab", "Tab")
    s.wait_for(re.compile(r"Response\s*$", re.M))
    s.keys("/")
    s.wait_for("Search body:")
    s.type("email")
    s.keys("Enter")
    s.wait_for("match 1/5")
    s.keys("n")
    s.wait_for("match 2/5")


def test_filtering_the_body_with_jsonpath(tui):
    s = tui()
    send(s, "List users")
    s.wait_for("200 OK")
    s.keys("f")
    s.wait_for("JSONPath:")
    s.type("$.items[*].name")
    s.keys("Enter")
    text = s.wait_for("JSONPath $.items[*].name")
    assert '"Ada Lovelace",' in text and '"email"' not in text


def test_copy_as_curl_shows_the_command(tui):
    s = tui()
    select_endpoint(s, "Create user")
    s.keys("c")
    text = s.wait_for("copied to the clipboard")
    # A POST with a body: curl's own default, so no -X; the body says it.
    assert "curl" in text and "--data-binary" in text and "/v1/users" in text


def test_resizing_to_40x12_and_back_reflows(tui):
    s = tui()
    send(s, "Get user")
    s.wait_for("200 OK")
    s.resize(40, 12)
    small = s.wait_for("Response")
    assert max(len(line) for line in small.splitlines()) <= 40
    s.resize(120, 36)
    s.wait_for("Environments")
    assert "Ada Lovelace" in s.text()


def test_escape_sequences_in_a_body_are_shown_inert(tui):
    s = tui()
    send(s, "Escape sequences")
    text = s.wait_for("␛[2J")
    assert "␛]0;owned" in text
    title = s.tmux("display-message", "-p", "-t", s.name, "#{pane_title}")
    assert "owned" not in title
    assert "Environments" in s.text()


def test_quitting_restores_the_terminal(explorer_bin, demo, screen):
    s = screen(["sh", "-c", f"{explorer_bin} {demo.collection}; echo \"[explorer $?]\"; stty -a"])
    s.wait_for("Endpoints")
    s.keys("q")
    text = s.wait_for("[explorer 0]")
    s.wait_for("icanon")
    assert " -icanon" not in s.text() and " -echo " not in s.text()


def test_sigterm_restores_the_terminal(explorer_bin, demo, screen):
    s = screen(["sh", "-c", f"{explorer_bin} {demo.collection}; echo \"[explorer $?]\"; stty -a"])
    s.wait_for("Endpoints")
    pid = poll(lambda: s.child_pid("explorer"), message="the explorer's pid")
    subprocess.run(["kill", "-TERM", str(pid)], check=True)
    s.wait_for("[explorer")
    s.wait_for("icanon")
    assert " -icanon" not in s.text() and " -echo " not in s.text()


# A collection whose YAML does not parse (a flow sequence never closed).
BROKEN_COLLECTION = "name: Broken\nendpoints:\n  - name: One\n    path: [unclosed\n"


def test_a_broken_collection_in_a_terminal_says_where_and_restores_it(explorer_bin, tmp_path, screen):
    # A collection that cannot be used ends with its error on the normal screen and the
    # terminal as it was.
    broken = tmp_path / "broken.yaml"
    broken.write_text(BROKEN_COLLECTION)
    s = screen(["sh", "-c", f"{explorer_bin} {broken}; echo \"[explorer $?]\"; stty -a"])
    text = s.wait_for("[explorer 2]")
    s.wait_for("icanon")
    assert "broken.yaml" in text and "line" in text
    assert " -icanon" not in s.text() and " -echo " not in s.text()
    assert "Endpoints" not in s.text()


def test_a_broken_collection_without_a_terminal_is_the_error_reported(explorer_bin, tmp_path):
    broken = tmp_path / "broken.yaml"
    broken.write_text(BROKEN_COLLECTION)
    result = subprocess.run([str(explorer_bin), str(broken)], capture_output=True, text=True, stdin=subprocess.DEVNULL,
                            start_new_session=True, timeout=30)
    assert result.returncode == 2, result.stderr
    assert "broken.yaml" in result.stderr and "terminal" not in result.stderr


def test_no_terminal_says_so(explorer_bin, demo):
    result = subprocess.run([str(explorer_bin), str(demo.collection)], capture_output=True, text=True,
                            stdin=subprocess.DEVNULL, start_new_session=True, timeout=30)
    assert result.returncode == 1, result.stderr
    assert "could not use this terminal" in result.stderr


def test_editing_the_collection_on_disk_reloads_it_live(tui, demo):
    s = tui()
    select_endpoint(s, "Get user")
    original = demo.collection.read_text()
    demo.collection.write_text(original + "  - name: Brand new endpoint\n    path: /users/3\n")
    s.wait_for("Reloaded demo.yaml")
    send(s, "Brand new")
    s.wait_for('"name": "Margaret Hamilton"')
    demo.collection.write_text(original + "  - name: [broken\n")
    text = s.wait_for("demo.yaml:")
    assert "Endpoints" in text  # the last good collection stays on screen


def test_keys_are_rebindable_in_the_config_file(tui, tmp_path):
    config = tmp_path / "config" / "explorer" / "config.yaml"
    config.parent.mkdir(parents=True)
    config.write_text("keys:\n  quit: x\n  environments: E\n  sendd: ctrl-s\n")
    s = tui()
    s.wait_for('"sendd" is not a command (did you mean send?)')
    s.keys("q")  # no longer quits; any key clears the message
    text = s.wait_for("x quit")
    assert "E env" in text
    s.keys("E")
    s.wait_for("Switch environment")
    s.keys("Escape")
    s.wait_until_gone("Switch environment")  # else ESC x arrives as Alt-x
    s.keys("x")
    s.wait_for("[exited 0]")


def test_editing_the_request_line_then_saving_it_to_the_file(tui, demo):
    s = tui()
    select_endpoint(s, "Get user")
    s.keys("i")
    s.wait_for("Request: GET /users/{{user_id}}")
    s.keys("C-u")
    s.type("GET /users/3?expand=posts")
    s.keys("Enter")
    s.wait_for("edited · S saves")
    s.keys("Enter")
    s.wait_for('"name": "Margaret Hamilton"')
    assert "/users/3?expand=posts" in s.text()
    s.keys("S")
    s.wait_for("Save the edit of Users/Get user")
    s.keys("y")
    s.wait_for("Saved Users/Get user")
    text = demo.collection.read_text()
    assert "/users/3" in text and "expand: posts" in text
    assert "List users" in text  # the rest of the collection is kept


def test_a_new_request_typed_as_a_url_is_saved_under_the_environments_base_url(tui, demo):
    """Ctrl-N, a whole URL under local's base_url, S: named from the path, saved relative to it."""
    s = tui()
    s.keys("C-n")
    s.wait_for("Request: GET")
    s.keys("C-u")
    s.type("GET " + demo.url("local", "/echo"))
    s.keys("Enter")
    s.wait_for(re.compile(r"200 OK"))
    s.keys("S")
    s.wait_for("Save as: Get echo")
    s.keys("Enter")
    s.wait_for(re.compile(r"Saved (\w+/)?Get echo to demo.yaml"))
    text = demo.collection.read_text()
    assert "name: Get echo" in text and "path: /echo" in text
    assert demo.url("local", "/echo") not in text


def tui_with_editor(tui, tmp_path, script):
    """The TUI with a shell script as $EDITOR (the file to edit is its $1)."""
    editor = tmp_path / "editor.sh"
    editor.write_text("#!/bin/sh\n" + script)
    editor.chmod(0o755)
    return tui(process_env={"EDITOR": str(editor)})


def test_editing_an_endpoint_in_the_editor(tui, tmp_path):
    # A scripted "editor": changes the path and adds a header, as a person would in vi.
    s = tui_with_editor(tui, tmp_path, "sed -i -e 's#/users/{{user_id}}#/users/5#' -e 's#^path:#headers: { X-Edited: yes }\\npath:#' \"$1\"\n")
    select_endpoint(s, "Get user")
    s.keys("E")
    s.wait_for("edited · S saves")
    s.keys("Enter")
    s.wait_for('"name": "Ken Thompson"')
    assert "X-Edited" in s.text()


def test_a_broken_edit_says_where_changes_nothing_and_keeps_the_text(tui, tmp_path):
    # An editor that breaks the file every time it runs: the text is reopened with the error
    # on top, a bounded number of times, then set aside in a file whose path is shown.
    s = tui_with_editor(tui, tmp_path, "printf 'path: [unclosed\\n' >> \"$1\"\n")
    select_endpoint(s, "Get user")
    s.keys("E")
    text = s.wait_for("Your text is kept in")
    assert "The edit was not applied" in text and "edited · S saves" not in text
    kept = re.search(r"(/\S+/explorer-Users-Get-user\.yaml)", text)
    assert kept, text
    with open(kept.group(1)) as f:
        assert "path: [unclosed" in f.read()
    assert oct(os.stat(kept.group(1)).st_mode & 0o777) == "0o600", "the kept text may hold secrets"
    s.keys("Escape")
    s.wait_until_gone("Your text is kept in")


def test_a_broken_edit_reopens_with_the_error_on_top_and_a_fix_applies(tui, tmp_path):
    log = tmp_path / "first-lines.log"
    s = tui_with_editor(
        tui, tmp_path,
        f"head -n 1 \"$1\" >> '{log}'\n"
        f"if [ ! -e '{tmp_path}/ran' ]; then touch '{tmp_path}/ran'; printf 'query: [unclosed\\n' >> \"$1\"; exit 0; fi\n"
        "printf 'name: Get user\\nmethod: DELETE\\npath: /users/7\\n' > \"$1\"\n")
    select_endpoint(s, "Get user")
    s.keys("E")
    s.wait_for("edited · S saves")
    first_lines = log.read_text().splitlines()
    assert len(first_lines) == 2
    assert first_lines[1].startswith("# ✗ The edit was not applied:"), first_lines
    assert "DELETE" in s.wait_for("/users/7")


def test_a_binary_body_is_a_hex_dump_with_its_type(tui):
    s = tui()
    send(s, "Binary image")
    text = s.wait_for("binary image/png")
    assert "00000000  89 50 4e 47 0d 0a 1a 0a" in text and ".PNG" in text


def test_latin1_text_is_decoded_by_its_charset(tui):
    s = tui()
    send(s, "Latin-1 text")
    text = s.wait_for("Café crème")
    assert "Straße" in text


def test_copying_the_body_says_what_was_copied(tui):
    s = tui()
    send(s, "Get user")
    s.wait_for("Ada Lovelace")
    s.keys("y")
    s.wait_for(re.compile(r"Copied \d+ bytes: \{"))


def test_compare_sends_the_endpoint_in_another_environment_and_shows_both_side_by_side(tui):
    s = tui(width=130, height=40)
    select_endpoint(s, "Get user")
    s.keys("=")
    s.wait_for("Compare Users/Get user in local with which environment?")
    s.keys("2")
    text = s.wait_for("Users/Get user: local ↔ staging — differ")
    # Each side's status line, then each difference as the first environment's value and the second's.
    assert re.search(r"local\s+200 OK", text) and re.search(r"staging\s+200 OK", text)
    assert '- $.name: "Ada Lovelace"' in text and '+ $.name: "Alan Turing"' in text
    assert "- X-Demo-Environment: local" in text and "+ X-Demo-Environment: staging" in text
    s.keys("Escape")
    s.wait_until_gone("local ↔ staging")
    # Both exchanges are in the history.
    s.wait_for(re.compile(r"Get user.*staging", re.S))


def test_compare_with_a_protected_environment_asks_first(tui):
    s = tui()
    select_endpoint(s, "Get user")
    s.keys("=")
    s.wait_for("with which environment?")
    s.keys("3")
    s.wait_for("Compare Users/Get user in local and production?")
    s.keys("n")
    s.wait_for("Not sent.")
    s.keys("=")
    s.wait_for("with which environment?")
    s.keys("3")
    s.wait_for("Compare Users/Get user in local and production?")
    s.keys("y")
    s.wait_for("Users/Get user: local ↔ production")
