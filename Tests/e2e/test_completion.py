"""Shell completion as a user meets it: an interactive bash in a real pseudo-terminal with
explorer's generated completion script loaded, TAB pressed, the screen read (polled, no
fixed sleeps). `explorer <TAB>` offers the subcommands; `explorer send <TAB>` in a folder
with a collection offers its endpoints, a name with a space quoted so that it stays one
argument. Names come from a file anyone may have written (a cloned repository): in bash, zsh
and fish a name that is shell syntax (`$(…)`, backquotes) is offered as text and never run."""
from __future__ import annotations

import fcntl
import os
import pty
import select
import subprocess
import termios
import time
from pathlib import Path

import pytest

from conftest import require_tool

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


# Names a cloned repository could hold: each runs a command if a shell evaluates it.
HOSTILE = """\
name: Cloned
environments: [{name: local, base_url: "http://127.0.0.1:1"}]
endpoints:
  - {name: "$(touch RAN-DOLLAR)", path: /a}
  - {name: "`touch RAN-BACKQUOTE`", path: /b}
  - {name: "a:b ${HOME}", path: /c}
"""

# How each shell is started, its terminal type (fish draws no completion pager on a dumb
# one) and how its script is loaded; the prompt is "$ " in all three.
SHELLS = {
    "bash": (["bash", "--norc", "--noprofile", "-i"], "dumb",
             "source {script}; bind 'set show-all-if-ambiguous on'; echo READY\n"),
    "zsh": (["zsh", "-f", "-i"], "dumb",
            "PS1='$ '; autoload -Uz compinit; compinit -u; source {script}; echo READY\n"),
    "fish": (["fish", "--no-config", "-i"], "xterm",
             "function fish_prompt; echo -n '$ '; end; source {script}; echo READY\n"),
}


class Shell:
    """An interactive shell in a pty with explorer's completion script for it loaded, its
    output collected as it comes."""

    def __init__(self, explorer_bin: Path, folder: Path, shell: str = "bash"):
        script = folder / f"completion.{shell}"
        script.write_text(subprocess.run([str(explorer_bin), "--generate-completion-script", shell],
                                         capture_output=True, text=True, check=True).stdout)
        bin_dir = folder / "bin"
        bin_dir.mkdir()
        (bin_dir / "explorer").symlink_to(explorer_bin)
        self.controller, terminal = pty.openpty()
        command, terminal_type, setup = SHELLS[shell]
        environment = {"PATH": f"{bin_dir}:/usr/bin:/bin", "HOME": str(folder), "TERM": terminal_type, "LANG": "C.UTF-8",
                       "PS1": "$ ", "XDG_STATE_HOME": str(folder / "state"), "XDG_CONFIG_HOME": str(folder / "config")}
        def own_terminal():
            # A session of its own whose controlling terminal is the pty (fish refuses to be
            # interactive without one).
            os.setsid()
            fcntl.ioctl(0, termios.TIOCSCTTY, 0)

        self.process = subprocess.Popen(command, stdin=terminal, stdout=terminal, stderr=terminal,
                                        cwd=str(folder), env=environment, preexec_fn=own_terminal)
        os.close(terminal)
        self.seen = b""
        self.type(setup.format(script=script))
        self.wait_for("READY\r\n")
        self.wait_for("$ ", after="READY\r\n")

    def type(self, text: str) -> None:
        os.write(self.controller, text.encode())

    def wait_for(self, text: str, timeout: float = 20, after: str = "") -> str:
        """The output so far once `text` is in it (after the last `after`, when given)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            start = self.seen.rfind(after.encode()) + len(after) if after and after.encode() in self.seen else 0
            if text.encode() in self.seen[start:]:
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


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_endpoint_names_are_offered_as_text_and_never_run(explorer_bin, tmp_path, shell):
    require_tool(shell)
    (tmp_path / "explorer.yaml").write_text(HOSTILE)
    terminal = Shell(explorer_bin, tmp_path, shell)
    try:
        terminal.type("explorer send \t")
        # Every name listed as written: the shell syntax in it is text.
        terminal.wait_for("touch RAN-DOLLAR")
        terminal.wait_for("touch RAN-BACKQUOTE")
        terminal.wait_for("a:b")
        # A unique prefix completes to the name itself, quoted as the shell quotes text.
        terminal.type("\x15explorer send a\t")
        terminal.wait_for("HOME}")
        terminal.type("\x15printf 'DONE-%s\\n' 42\n")
        terminal.wait_for("DONE-42")
        assert not (tmp_path / "RAN-DOLLAR").exists(), f"{shell} ran an endpoint name's $(…)"
        assert not (tmp_path / "RAN-BACKQUOTE").exists(), f"{shell} ran an endpoint name's backquotes"
    finally:
        terminal.close()
