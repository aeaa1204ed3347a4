"""The demo's OpenAPI document checked from outside: schemathesis (a property-based API tester,
PyPI) reads `/openapi.json` from the running `explorer demo --serve-only`, generates requests
for every operation and checks each response against the document: status, content type,
headers and body schema, and the links between operations (stateful phase).

A short, deterministic run: a fixed number of examples per operation, deterministic generation.
Needs schemathesis (`scripts/setup --with-test-tools` installs it): skipped without it, failed
when EXPLORER_REQUIRE_TEST_TOOLS=1 (see `conftest.require_tool`).

Two of schemathesis's checks are left out, both for what the demo does on purpose:
`not_a_server_error` (`/error` and `/status/5XX` answer 5xx, as documented) and
`positive_data_acceptance` (a schema-valid post can name a user that an earlier request of the
run deleted: the demo answers 422, as documented). Requests are generated from the schemas
(`--mode positive`): the demo is lenient with query parameters (it clamps them) by design.
"""
from __future__ import annotations

import subprocess
import tempfile

from conftest import require_tool

EXAMPLES_PER_OPERATION = 5


DEFAULT_EXCLUDED = ("not_a_server_error", "positive_data_acceptance")


def run_schemathesis(schema: str, base_url: str, exclude: tuple[str, ...] = (), mode: str = "positive",
                     include: tuple[str, ...] = ()) -> subprocess.CompletedProcess:
    """Runs every check but the two above (less `include`) and `exclude`, on requests generated in
    `mode` (positive: valid for the document; negative: each breaking it; all: both)."""
    schemathesis = require_tool("schemathesis", commands=("schemathesis", "st"))
    excluded = [check for check in (*DEFAULT_EXCLUDED, *exclude) if check not in include]
    command = [
        schemathesis, "run", schema, "--url", base_url,
        "--max-examples", str(EXAMPLES_PER_OPERATION), "--generation-deterministic",
        "--mode", mode, "--checks", "all", "--exclude-checks", ",".join(excluded),
        "--request-timeout", "10", "--no-color",
    ]
    # In a folder of its own: schemathesis keeps a .schemathesis folder where it runs.
    with tempfile.TemporaryDirectory() as folder:
        return subprocess.run(command, capture_output=True, text=True, timeout=300, cwd=folder)


def test_the_demo_answers_as_its_document_says(demo):
    base = demo.urls["local"]  # http://127.0.0.1:P/v1
    result = run_schemathesis(base + "/openapi.json", base)
    assert result.returncode == 0, result.stdout[-8000:] + result.stderr[-2000:]
    assert "Tested: " in result.stdout
    # Every operation of the document was tested, none skipped.
    selected = [line for line in result.stdout.splitlines() if line.strip().startswith("Selected:")]
    tested = [line for line in result.stdout.splitlines() if line.strip().startswith("Tested:")]
    assert selected and tested, result.stdout[-4000:]
    assert selected[0].split()[-1].split("/")[0] == tested[0].split()[-1], result.stdout[-4000:]
