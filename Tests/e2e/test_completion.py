"""Shell completion as a user meets it: an interactive bash in a real pseudo-terminal with
explorer's generated completion script loaded, TAB pressed, the screen read (polled, no
fixed sleeps). `explorer <TAB>` offers the subcommands; `explorer send <TAB>` in a folder
with a collection offers its endpoints, a name with a space quoted so that it stays one
argument."""
from __future__ import annotations

import os
import pty
import select
import subprocess
import time
from pathlib import Path

COLLECTION = """\
name: Shop
environments: [{name: local, base_url: "http://127.0.0.1:1"}]
endpoints:
  - folder: Users
    endpoints:
      - {name: Get user, path: /users/1}
      - {name: List users, path: /users}
  - {name: Health, path: /health}
"""


class Shell:
    """`bash --norc -i` in a pty, its output collected as it comes."""

    def __init__(self, explorer_bin: Path, folder: Path):
        script = folder / "completion.bash"
        script.write_text(subprocess.run([str(explorer_bin), "--generate-completion-script", "bash"],
                                         capture_output=True, text=True, check=True).stdout)
        bin_dir = folder / "bin"
        bin_dir.mkdir()
        (bin_dir / "explorer").symlink_to(explorer_bin)
        self.controller, terminal = pty.openpty()
        environment = {"PATH": f"{bin_dir}:/usr/bin:/bin", "HOME": str(folder), "TERM": "dumb", "LANG": "C.UTF-8",
                       "PS1": "$ ", "XDG_STATE_HOME": str(folder / "state")}
        self.process = subprocess.Popen(["bash", "--norc", "--noprofile", "-i"], stdin=terminal, stdout=terminal, stderr=terminal,
                                        cwd=str(folder), env=environment, start_new_session=True)
        os.close(terminal)
        self.seen = b""
        self.type(f"source {script}; bind 'set show-all-if-ambiguous on'; echo READY\n")
        self.wait_for("READY\r\n$ ")

    def type(self, text: str) -> None:
        os.write(self.controller, text.encode())

    def wait_for(self, text: str, timeout: float = 20) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if text.encode() in self.seen:
                return self.seen.decode("utf-8", "replace")
            ready, _, _ = select.select([self.controller], [], [], 0.1)
            if ready:
                try:
                    self.seen += os.read(self.controller, 65536)
                except OSError:
                    break
        raise AssertionError(f"{text!r} never appeared; the terminal showed:\n{self.seen.decode('utf-8', 'replace')}")

    def close(self) -> None:
        self.process.kill()
        self.process.wait(timeout=10)
        os.close(self.controller)


def test_tab_completes_subcommands_and_the_collections_endpoints(explorer_bin, tmp_path):
    (tmp_path / "explorer.yaml").write_text(COLLECTION)
    shell = Shell(explorer_bin, tmp_path)
    try:
        shell.type("explorer se\t")
        shell.wait_for("explorer send ")
        # A unique endpoint: completed in place, its space quoted.
        shell.type("Users/G\t")
        shell.wait_for("explorer send Users/Get\\ user ")
        shell.type("\x15")  # Ctrl-U: a new line to type
        shell.type("explorer send \t")
        # Every endpoint listed (bash shows the part after the last /, as for paths).
        screen = shell.wait_for("List users")
        listing = screen[screen.rindex("explorer send \r\n") if "explorer send \r\n" in screen else 0:]
        assert "Health" in listing and "Get user" in listing
        # run completes folders too.
        shell.type("\x15explorer run Us\t")
        shell.wait_for("Users       Get user    List users")
    finally:
        shell.close()


def test_a_named_collection_is_the_one_completed(explorer_bin, tmp_path):
    other = tmp_path / "elsewhere"
    other.mkdir()
    (other / "api.yaml").write_text(COLLECTION.replace("Health", "Ping"))
    shell = Shell(explorer_bin, tmp_path)
    try:
        shell.type(f"explorer send --collection {other / 'api.yaml'} Pi\t")
        shell.wait_for("Ping ")
    finally:
        shell.close()
