"""`explorer --version`, and what `scripts/install` does with its arguments and its manifest.

The release build itself is not run here (it takes minutes): `scripts/install --binary FILE`
installs an already-built binary (the debug one under test) the same way, and `--uninstall`
is checked against a prefix that holds other programs' files too.
"""
from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
INSTALL = ROOT / "scripts" / "install"
VERSION_LINE = re.compile(r"^explorer \d+\.\d+\.\d+ \(([0-9a-f]{7,}(-dirty)?|unknown)\)$")
INSTALLED = [
    "bin/explorer",
    "share/bash-completion/completions/explorer",
    "share/zsh/site-functions/_explorer",
    "share/fish/vendor_completions.d/explorer.fish",
    "share/man/man1/explorer.1",
]
MANIFEST = "share/explorer/install-manifest"


def run(*arguments: str | Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(a) for a in arguments], capture_output=True, text=True, timeout=120, env=env)


def test_version_names_the_release_and_the_commit_it_was_built_from(explorer_bin):
    result = run(explorer_bin, "--version")
    assert result.returncode == 0, result.stderr
    line = result.stdout.strip()
    assert VERSION_LINE.match(line), line
    source = (ROOT / "Sources" / "Explorer" / "CLI" / "ExplorerVersion.swift").read_text()
    number = re.search(r'static let number = "([^"]+)"', source).group(1)
    assert line.startswith(f"explorer {number} ("), (line, number)


def test_version_of_a_build_from_this_work_tree_names_its_head(explorer_bin):
    head = run("git", "-C", ROOT, "rev-parse", "HEAD")
    if head.returncode != 0:
        pytest.skip("not a git work tree")
    commit = VERSION_LINE.match(run(explorer_bin, "--version").stdout.strip()).group(1)
    if commit == "unknown":
        pytest.fail("a binary built from a git work tree says its commit is unknown")
    # The binary may predate the last commit of a shared tree; it names some commit of it.
    assert run("git", "-C", ROOT, "cat-file", "-e", commit.removesuffix("-dirty") + "^{commit}").returncode == 0


def test_install_usage_errors_exit_2_and_say_why(tmp_path):
    for arguments, message in [
        (["--frobnicate"], "unknown option --frobnicate"),
        ([str(tmp_path / "a"), str(tmp_path / "b")], "one PREFIX"),
        (["--binary"], "--binary needs a file"),
        (["--binary", str(tmp_path / "missing")], "no such file"),
    ]:
        result = run(INSTALL, *arguments)
        assert result.returncode == 2, (arguments, result.stdout, result.stderr)
        assert message in result.stderr, (arguments, result.stderr)
        assert "usage: scripts/install" in result.stderr


def test_install_help_shows_the_usage():
    result = run(INSTALL, "--help")
    assert result.returncode == 0
    assert "scripts/install --uninstall [PREFIX]" in result.stdout


def fake_install(prefix: Path) -> None:
    """A prefix as `scripts/install` leaves it, beside files that belong to other programs."""
    for path in INSTALLED:
        (prefix / path).parent.mkdir(parents=True, exist_ok=True)
        (prefix / path).write_text("explorer's\n")
    (prefix / "bin" / "other-tool").write_text("not explorer's\n")
    (prefix / "share" / "man" / "man1" / "other-tool.1").write_text("not explorer's\n")
    (prefix / MANIFEST).parent.mkdir(parents=True)
    # Directories the install created end in a slash; bin/ was there before it.
    lines = INSTALLED + [
        "share/bash-completion/completions/", "share/bash-completion/",
        "share/zsh/site-functions/", "share/zsh/",
        "share/fish/vendor_completions.d/", "share/fish/",
        "share/explorer/", MANIFEST,
    ]
    (prefix / MANIFEST).write_text("".join(line + "\n" for line in lines))


def test_uninstall_removes_exactly_what_the_manifest_lists(tmp_path):
    prefix = tmp_path / "prefix"
    fake_install(prefix)
    result = run(INSTALL, "--uninstall", prefix)
    assert result.returncode == 0, result.stderr
    left = sorted(str(p.relative_to(prefix)) for p in prefix.rglob("*"))
    assert left == ["bin", "bin/other-tool", "share", "share/man", "share/man/man1", "share/man/man1/other-tool.1"]
    for path in INSTALLED:
        assert f"removed {prefix / path}" in result.stdout


def test_uninstall_keeps_a_listed_directory_that_holds_something_else(tmp_path):
    prefix = tmp_path / "prefix"
    fake_install(prefix)
    (prefix / "share" / "zsh" / "site-functions" / "_other").write_text("not explorer's\n")
    assert run(INSTALL, "--uninstall", prefix).returncode == 0
    assert (prefix / "share" / "zsh" / "site-functions" / "_other").exists()
    assert not (prefix / "share" / "zsh" / "site-functions" / "_explorer").exists()


def test_uninstall_refuses_a_manifest_that_reaches_outside_the_prefix(tmp_path):
    prefix = tmp_path / "prefix"
    fake_install(prefix)
    victim = tmp_path / "victim"
    victim.write_text("keep me\n")
    (prefix / MANIFEST).write_text("../victim\nbin/explorer\n")
    result = run(INSTALL, "--uninstall", prefix)
    assert result.returncode == 1
    assert "../victim" in result.stderr
    assert victim.exists() and (prefix / "bin" / "explorer").exists()


def test_uninstall_without_an_install_says_there_is_none(tmp_path):
    result = run(INSTALL, "--uninstall", tmp_path)
    assert result.returncode == 1
    assert f"no explorer install in {tmp_path}" in result.stderr


def test_install_of_a_built_binary_then_again_then_uninstall_leaves_the_prefix_as_it_was(explorer_bin, tmp_path):
    prefix = tmp_path / "prefix"
    (prefix / "bin").mkdir(parents=True)
    (prefix / "bin" / "other-tool").write_text("not explorer's\n")
    env = dict(os.environ)
    first = run(INSTALL, "--binary", explorer_bin, prefix, env=env)
    assert first.returncode == 0, first.stderr
    for path in INSTALLED:
        assert (prefix / path).is_file(), path
        assert str(prefix / path) in first.stdout
    assert f'export PATH="{prefix}/bin:$PATH"' in first.stdout
    assert VERSION_LINE.match(run(prefix / "bin" / "explorer", "--version").stdout.strip())
    assert "-F _explorer explorer" in (prefix / INSTALLED[1]).read_text()
    assert "#compdef explorer" in (prefix / INSTALLED[2]).read_text()
    assert "complete -c 'explorer'" in (prefix / INSTALLED[3]).read_text()
    assert ".Dt EXPLORER 1" in (prefix / INSTALLED[4]).read_text()

    second = run(INSTALL, "--binary", explorer_bin, prefix, env={**env, "PATH": f"{prefix}/bin:{env['PATH']}"})
    assert second.returncode == 0, second.stderr
    assert "export PATH" not in second.stdout
    manifest = (prefix / MANIFEST).read_text().splitlines()
    assert sorted(set(manifest)) == sorted(manifest), "an entry listed twice"

    assert run(INSTALL, "--uninstall", prefix).returncode == 0
    assert sorted(str(p.relative_to(prefix)) for p in prefix.rglob("*")) == ["bin", "bin/other-tool"]
