"""The options several commands share (`--var`, `--timeout`, `--collection`, `--env`, `--yes`,
`--no-history`, `--no-cookies`) are one declaration each: the same value is read the same way,
and a malformed one is refused with the same sentence and exit code 2 by every command that
takes it, before anything is read or sent."""
from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

# A collection whose servers are never reached: a malformed option stops the command first.
COLLECTION = """\
name: Shop
environments:
  - {name: a, base_url: "http://127.0.0.1:9/{{tenant}}"}
  - {name: b, base_url: "http://127.0.0.1:9/b"}
endpoints:
  - {name: Health, path: /health}
  - name: Schema
    method: POST
    path: /graphql
    graphql: {query: "{ a }"}
"""

# Every command that takes --var (its words), with what else its line needs.
TAKING_VARIABLES = {
    "send": ["Health"],
    "run": [],
    "load": ["Health", "-n", "1"],
    "compare": ["Health", "--env", "a", "--env", "b"],
    "graphql schema": ["Schema"],
    "export curl": ["Health"],
    "export har": [],
}

# Every command that takes --timeout, with what else its line needs.
TAKING_TIMEOUT = {
    "send": ["Health"],
    "run": [],
    "load": ["Health", "-n", "1"],
    "compare": ["Health", "--env", "a", "--env", "b"],
    "history resend": ["1"],
}


def run(explorer_bin: Path, tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    """Runs the binary in tmp_path (which holds explorer.yaml), its state there too."""
    (tmp_path / "explorer.yaml").write_text(COLLECTION)
    environment = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(tmp_path),
        "XDG_STATE_HOME": str(tmp_path / "state"),
        "LANG": "C.UTF-8",
    }
    return subprocess.run(
        [str(explorer_bin), *args], capture_output=True, text=True, env=environment, cwd=str(tmp_path),
        stdin=subprocess.DEVNULL, timeout=60,
    )


@pytest.mark.parametrize("command", sorted(TAKING_VARIABLES))
@pytest.mark.parametrize("malformed", ["novalue", "=value"])
def test_a_malformed_var_is_the_same_sentence_and_exit_2_everywhere(explorer_bin, tmp_path, command, malformed):
    result = run(explorer_bin, tmp_path, *command.split(), *TAKING_VARIABLES[command], "--var", malformed)
    assert result.returncode == 2, (command, result.stderr)
    assert result.stderr == f'--var expects NAME=VALUE, but got "{malformed}".\n', command
    assert result.stdout == ""
    assert not (tmp_path / "state").exists(), "nothing was recorded"


@pytest.mark.parametrize("command", sorted(TAKING_VARIABLES))
def test_the_malformed_var_is_named_wherever_it_is_on_the_line(explorer_bin, tmp_path, command):
    result = run(explorer_bin, tmp_path, *command.split(), "--var", "a=1", *TAKING_VARIABLES[command],
                 "--var", "b", "--var", "c=3")
    assert (result.returncode, result.stderr) == (2, '--var expects NAME=VALUE, but got "b".\n'), command


def option_help(explorer_bin: Path, tmp_path: Path, command: str, option: str) -> str:
    """The help of `option` (as `--timeout <S>`) in `explorer COMMAND --help`, its lines joined."""
    result = run(explorer_bin, tmp_path, *command.split(), "--help")
    assert result.returncode == 0, result.stderr
    entries: list[list[str]] = []
    for line in result.stdout.splitlines():
        if line.startswith("  -"):
            entries.append([line])
        elif line.startswith(" " * 10) and entries and entries[-1] is not None:
            entries[-1].append(line)
        else:
            entries.append(None)
    found = [" ".join(" ".join(entry).split()) for entry in entries if entry is not None]
    found = [text for text in found if text.startswith(option + " ")]
    assert len(found) == 1, (command, option, result.stdout)
    return found[0]


def test_every_command_shows_the_same_var_help(explorer_bin, tmp_path):
    helps = {option_help(explorer_bin, tmp_path, command, "--var <NAME=VALUE>") for command in TAKING_VARIABLES}
    assert helps == {"--var <NAME=VALUE> Set a variable that wins over the collection's (repeatable)."}


def test_a_later_var_wins_and_a_value_may_hold_equals_signs(explorer_bin, tmp_path):
    result = run(explorer_bin, tmp_path, "export", "curl", "Health", "--env", "a",
                 "--var", "tenant=first", "--var", "tenant=t=2")
    assert result.returncode == 0, result.stderr
    assert "http://127.0.0.1:9/t=2/health" in result.stdout


@pytest.mark.parametrize("command", sorted(TAKING_TIMEOUT))
@pytest.mark.parametrize("timeout", ["0", "-1"])
def test_a_timeout_not_above_zero_is_the_same_sentence_and_exit_2_everywhere(explorer_bin, tmp_path, command,
                                                                             timeout):
    result = run(explorer_bin, tmp_path, *command.split(), *TAKING_TIMEOUT[command], f"--timeout={timeout}")
    assert result.returncode == 2, (command, result.stderr)
    assert result.stderr == "--timeout must be a number of seconds greater than 0.\n", command


@pytest.mark.parametrize("option", ["--no-history", "--no-cookies", "--yes", "--timeout <S>"])
def test_the_shared_options_have_one_help_text(explorer_bin, tmp_path, option):
    commands = ["send", "run", "load", "compare"] + (["history resend"] if option in ("--yes", "--timeout <S>") else [])
    helps = {option_help(explorer_bin, tmp_path, command, option) for command in commands}
    assert len(helps) == 1, helps
