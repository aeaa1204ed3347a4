"""grpcurl command lines in and out: `explorer export grpcurl` of the demo's gRPC endpoints,
imported with `explorer import grpcurl` into a new collection, calls the demo's gRPC server and
gets the same answers as the demo collection; the HTTP formats leave gRPC endpoints out with one
warning line; the TUI's `c` copies a gRPC endpoint as grpcurl."""
from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

from test_tui import select_endpoint, tui  # noqa: F401  (the fixture)


def run(explorer_bin: Path, *args: str, cwd: Path | None = None, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([str(explorer_bin), *args], capture_output=True, text=True, timeout=60, cwd=cwd, input=stdin)


def grpc_address(demo, environment: str = "local") -> str:
    """The demo's printed gRPC address of an environment (`grpc://127.0.0.1:PORT`)."""
    for line in demo.lines:
        match = re.match(rf"\s+{environment}\s+http://\S+\s+gRPC\s+(grpc://\S+)", line)
        if match:
            return match.group(1)
    raise AssertionError(f"no gRPC address for {environment} in {demo.lines}")


def test_exported_commands_import_into_a_collection_that_gets_the_same_answers(explorer_bin, demo, tmp_path):
    exported = run(explorer_bin, "export", "grpcurl", "--collection", str(demo.collection))
    assert exported.returncode == 0, exported.stderr
    address = grpc_address(demo).removeprefix("grpc://")
    commands = [line for line in exported.stdout.splitlines() if line.startswith("grpcurl ")]
    # Each of the demo's six gRPC endpoints, named in a comment, to the printed server, in plain text.
    assert len(commands) == 6, exported.stdout
    assert "# gRPC/Get user" in exported.stdout
    assert all(c.startswith("grpcurl -plaintext ") and f" {address} explorer.demo.v1.Directory/" in c for c in commands)
    assert """-d '{"text":"hello","author":"1"} {"text":"how are you?","author":"1"}'""" in exported.stdout

    script = tmp_path / "calls.sh"
    script.write_text(exported.stdout)
    imported_file = tmp_path / "imported.yaml"
    imported = run(explorer_bin, "import", "grpcurl", str(script), "--into", str(imported_file))
    assert imported.returncode == 0, imported.stderr
    assert "added 6" in imported.stderr, imported.stderr
    text = imported_file.read_text()
    assert f"base_url: grpc://{address}" in text, text

    # The same answers from both collections: a unary call and a client stream.
    for original, copy in [("gRPC/Get user", "Directory/GetUser"), ("gRPC/Tally reactions", "Directory/TallyReactions")]:
        expected = run(explorer_bin, "send", "--collection", str(demo.collection), original)
        got = run(explorer_bin, "send", "--collection", str(imported_file), copy)
        assert expected.returncode == 0 and got.returncode == 0, (expected.stderr, got.stderr)
        # The tally says how long the stream took: the one field that differs between two calls.
        got_answer, expected_answer = json.loads(got.stdout), json.loads(expected.stdout)
        got_answer.pop("elapsed", None), expected_answer.pop("elapsed", None)
        assert got_answer == expected_answer, (got.stdout, expected.stdout)
    assert got_answer["total"] == 3, got.stdout

    # And the imported collection exports the same commands again.
    again = run(explorer_bin, "export", "grpcurl", "--collection", str(imported_file))
    assert [line for line in again.stdout.splitlines() if line.startswith("grpcurl ")] == commands


def test_http_formats_leave_grpc_endpoints_out_with_one_warning(explorer_bin, demo):
    # har resolves what it writes: named endpoints (the demo's login flow needs a captured token).
    for format, names in [("http", []), ("hurl", []), ("postman", []), ("har", ["Users/Get user", "gRPC/Get user"])]:
        result = run(explorer_bin, "export", format, "--collection", str(demo.collection), *names)
        assert result.returncode == 0, result.stderr
        warnings = [line for line in result.stderr.splitlines() if "gRPC" in line]
        assert len(warnings) == 1, (format, result.stderr)
        assert "explorer export grpcurl" in warnings[0] and "gRPC/Get user" in warnings[0], warnings
        assert "Directory/GetUser" not in result.stdout, format
    curl = run(explorer_bin, "export", "curl", "--collection", str(demo.collection), "gRPC/Get user")
    assert curl.returncode == 1 and curl.stdout == "", curl.stdout
    assert "explorer export grpcurl" in curl.stderr, curl.stderr


def test_imported_credentials_are_secret_and_masked_on_export(explorer_bin, tmp_path):
    target = tmp_path / "api.yaml"
    command = "grpcurl -H 'authorization: Bearer s3cr3t' -d '{\"id\": 7}' api.example.com:443 acme.Users/Get\n"
    imported = run(explorer_bin, "import", "grpcurl", "-", "--into", str(target), stdin=command)
    assert imported.returncode == 0, imported.stderr
    text = target.read_text()
    assert "Bearer {{token}}" in text and "secrets:" in text, text

    masked = run(explorer_bin, "export", "grpcurl", "--collection", str(target))
    assert masked.returncode == 0, masked.stderr
    assert "s3cr3t" not in masked.stdout
    assert masked.stdout.startswith("grpcurl -H 'authorization: Bearer "), masked.stdout
    assert masked.stdout.rstrip().endswith("""-d '{"id":7}' api.example.com:443 acme.Users/Get"""), masked.stdout
    revealed = run(explorer_bin, "export", "grpcurl", "--reveal-secrets", "--collection", str(target))
    assert "'authorization: Bearer s3cr3t'" in revealed.stdout, revealed.stdout


def test_list_and_describe_are_refused_with_a_sentence(explorer_bin):
    result = run(explorer_bin, "import", "grpcurl", "grpcurl -plaintext localhost:8787 list")
    assert result.returncode == 1
    assert "not a call" in result.stderr and "explorer grpc list" in result.stderr, result.stderr


def test_copying_a_grpc_endpoint_gives_its_grpcurl_command(tui, demo):
    s = tui()
    select_endpoint(s, "gRPC Get user")
    s.keys("c")
    text = s.wait_for("copied to the clipboard")
    assert re.search(r"grpcurl · gRPC/Get user", text), text
    address = grpc_address(demo).removeprefix("grpc://")
    flat = re.sub(r"\s+", " ", text)
    assert "grpcurl -plaintext -d" in flat and address in flat, text
