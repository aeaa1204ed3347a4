"""`explorer mock --stateful` and the mock's refusals end to end: the real binary keeping resources
for a session (and in a --state file), and schemathesis checking it from outside with every check,
its stateful phase among them, on the demo's document and on public documents in Tests/Fixtures.

Short runs (a few examples per operation, deterministic generation), so that the file runs in
about a minute on two busy cores."""
from __future__ import annotations

import json
import os
import stat
import subprocess
import tempfile
from pathlib import Path

import pytest

from conftest import require_tool
from test_mock import Mock, curl, mocked_collection  # noqa: F401  (a fixture, used by name)

FIXTURES = Path(__file__).resolve().parents[1] / "Fixtures" / "openapi"
EXAMPLES = 3


def schemathesis(schema: Path, url: str, *, exclude: tuple[str, ...] = (), mode: str = "positive",
                 phases: str | None = None) -> subprocess.CompletedProcess:
    """`st run` with every check but `exclude`, on requests generated in `mode`."""
    command = [
        require_tool("schemathesis", commands=("schemathesis", "st")), "run", str(schema), "--url", url,
        "--max-examples", str(EXAMPLES), "--generation-deterministic", "--mode", mode, "--checks", "all",
        "--request-timeout", "10", "--no-color",
    ]
    if exclude:
        command += ["--exclude-checks", ",".join(exclude)]
    if phases:
        command += ["--phases", phases]
    # In a folder of its own: schemathesis keeps a .schemathesis folder where it runs.
    with tempfile.TemporaryDirectory() as folder:
        return subprocess.run(command, capture_output=True, text=True, timeout=300, cwd=folder)


def collection_for(tmp_path: Path, document: Path) -> Path:
    """A collection that names `document` with `openapi:` and has no endpoint of its own."""
    copy = tmp_path / document.name
    copy.write_bytes(document.read_bytes())
    collection = tmp_path / "api.yaml"
    collection.write_text(f"name: {document.stem}\nopenapi: {document.name}\nendpoints: []\n")
    return collection


def stateful_phase_ran(result: subprocess.CompletedProcess) -> bool:
    return "Stateful" in result.stdout and "Scenarios:" in result.stdout


# The mock looks for credentials and takes any: schemathesis's ignored_auth is about a real server.
# The demo's /error and /status/5XX are documented 5xx answers, served as documented.
DEMO_EXCLUDED = ("ignored_auth", "not_a_server_error")


def test_schemathesis_finds_the_stateful_mock_of_the_demo_true_to_the_document(explorer_bin, tmp_path,
                                                                              mocked_collection):  # noqa: F811
    mock = Mock(explorer_bin, tmp_path, str(mocked_collection), "--stateful")
    try:
        assert any(line.strip().startswith("state ") and "in memory only" in line for line in mock.lines), mock.lines
        # Every check, the stateful phase's use_after_free (ST301) and positive_data_acceptance
        # among them: a user created is read back, a deleted one is the documented 404.
        result = schemathesis(tmp_path / "demo-openapi.json", mock.url, exclude=DEMO_EXCLUDED)
        assert result.returncode == 0, result.stdout[-8000:] + result.stderr[-2000:]
        assert stateful_phase_ran(result), result.stdout[-4000:]
    finally:
        mock.stop()
    log = "".join(mock.lines)
    assert "stored)" in log and "removed)" in log, log[-4000:]


# Twilio's Lookups document: its own examples break its schemas (a null where a $ref'd object or
# array is required: its `nullable` beside a $ref is ignored in OpenAPI 3.0), and its operations
# require credentials without documenting a 401 or 403, where schemathesis's
# missing_required_header wants a 401 that status_code_conformance then calls undocumented: the
# mock answers 401 with a problem that says the document declares none. Those two checks are
# about the document, not the mock; the petstore runs every check.
# Redocly's Museum API and xkcd's (issue 57) run every check too: positive requests carry the
# credentials schemathesis generates for the Museum's basic scheme, so no 401 is asked for.
PUBLIC_EXCLUDED = {
    "oai-petstore.yaml": ("ignored_auth",),
    "redocly-museum.yaml": ("ignored_auth",),
    "twilio-lookups-v2.json": ("ignored_auth", "response_schema_conformance", "status_code_conformance"),
    "xkcd.yaml": (),
}


@pytest.mark.parametrize("document", sorted(PUBLIC_EXCLUDED))
def test_schemathesis_finds_the_mock_of_a_public_document_true_to_it(explorer_bin, tmp_path, document):
    collection = collection_for(tmp_path, FIXTURES / document)
    for extra in ((), ("--stateful",)):
        mock = Mock(explorer_bin, tmp_path, str(collection), *extra)
        try:
            # Without state a deleted resource is still answered (use_after_free is for --stateful).
            stateless = () if extra else ("use_after_free",)
            result = schemathesis(tmp_path / document, mock.url, exclude=PUBLIC_EXCLUDED[document] + stateless)
            assert result.returncode == 0, (extra, result.stdout[-8000:] + result.stderr[-2000:])
            # xkcd's two GETs have no links between them: it has no stateful phase to run.
            if extra and document != "xkcd.yaml":
                assert stateful_phase_ran(result), result.stdout[-4000:]
        finally:
            mock.stop()


def test_the_stateful_mock_keeps_what_is_posted_until_it_is_deleted(explorer_bin, tmp_path,
                                                                     mocked_collection):  # noqa: F811
    state = tmp_path / "state.json"
    mock = Mock(explorer_bin, tmp_path, str(mocked_collection), "--stateful", "--state", str(state))
    try:
        status, _, body = curl(mock.url + "/users", "-X", "POST", "-H", "Content-Type: application/json",
                               "--data", '{"name": "Grace", "email": "grace@example.com"}')
        assert status == 201, body
        created = json.loads(body)
        assert created["name"] == "Grace" and isinstance(created["id"], int), created
        item = f"{mock.url}/users/{created['id']}"
        status, _, body = curl(item)
        assert status == 200 and json.loads(body)["email"] == "grace@example.com", body
        status, _, body = curl(item, "-X", "PATCH", "-H", "Content-Type: application/json",
                               "--data", '{"name": "Grace Hopper"}')
        assert status == 200 and json.loads(body)["name"] == "Grace Hopper", body
        listed = json.loads(curl(mock.url + "/users")[2])
        names = [user["name"] for user in (listed["items"] if isinstance(listed, dict) else listed)]
        assert "Grace Hopper" in names, listed
        assert curl(item, "-X", "DELETE")[0] == 204
        status, headers, body = curl(item)
        assert status == 404, body
        # Another one, kept in the state file when the mock stops.
        status, _, body = curl(mock.url + "/users", "-X", "POST", "-H", "Content-Type: application/json",
                               "--data", '{"name": "Barbara", "email": "barbara@example.com"}')
        assert status == 201, body
        kept = json.loads(body)["id"]
    finally:
        assert mock.stop() == 0
    assert stat.S_IMODE(os.stat(state).st_mode) == 0o600
    assert "saved" in "".join(mock.lines), mock.lines
    again = Mock(explorer_bin, tmp_path, str(mocked_collection), "--stateful", "--state", str(state))
    try:
        status, _, body = curl(f"{again.url}/users/{kept}")
        assert status == 200 and json.loads(body)["name"] == "Barbara", body
        assert curl(f"{again.url}/users/{created['id']}")[0] == 404
    finally:
        again.stop()


def test_a_full_stateful_mock_says_which_limit_to_raise(explorer_bin, tmp_path, mocked_collection):  # noqa: F811
    mock = Mock(explorer_bin, tmp_path, str(mocked_collection), "--stateful", "--state-limit", "1")
    try:
        status, headers, body = curl(mock.url + "/users", "-X", "POST", "-H", "Content-Type: application/json",
                                     "--data", '{"name": "Grace", "email": "grace@example.com"}')
        assert status == 507 and headers["content-type"] == "application/problem+json", body
        assert "--state-limit" in json.loads(body)["detail"]
    finally:
        mock.stop()
    assert "state full" in "".join(mock.lines)


def test_the_mock_refuses_with_the_documented_answers(explorer_bin, tmp_path, mocked_collection):  # noqa: F811
    mock = Mock(explorer_bin, tmp_path, str(mocked_collection))
    try:
        # No credentials for /me, which documents 401.
        assert curl(mock.url + "/me")[0] == 401
        # A method /users does not take: 405 with Allow, and a problem that says the document
        # declares no 405 there.
        status, headers, body = curl(mock.url + "/users", "-X", "DELETE")
        assert status == 405 and "GET" in headers["allow"], body
        assert "declares no 405" in json.loads(body)["detail"]
        status, _, body = curl(mock.url + "/nowhere")
        assert status == 404 and "declares no such path" in json.loads(body)["detail"]
    finally:
        mock.stop()


# Requests that break the document. The petstore declares no 400 or 422 but a default answer,
# which any status is. The Museum requires credentials (basic, for the whole document) and its
# operations but DELETE document no 401 or 403: a negative request without them is the
# missing_required_header probe, which wants a 401, and status_code_conformance calls that 401
# undocumented; no answer meets both, so the latter is the document's, as for Twilio above.
NEGATIVE_EXCLUDED = {
    "oai-petstore.yaml": ("ignored_auth",),
    "redocly-museum.yaml": ("ignored_auth", "status_code_conformance"),
}


@pytest.mark.parametrize("document", sorted(NEGATIVE_EXCLUDED))
def test_schemathesis_finds_a_public_documents_mock_accepting_invalid_requests_without_validation(
        explorer_bin, tmp_path, document):
    collection = collection_for(tmp_path, FIXTURES / document)
    for validating in (True, False):
        mock = Mock(explorer_bin, tmp_path, str(collection), *(() if validating else ("--no-validate-requests",)))
        try:
            result = schemathesis(tmp_path / document, mock.url, mode="negative",
                                  exclude=NEGATIVE_EXCLUDED[document], phases="examples,coverage,fuzzing")
            if validating:
                assert result.returncode == 0, result.stdout[-8000:] + result.stderr[-2000:]
            else:
                assert result.returncode != 0, result.stdout[-4000:]
                assert "Schema-violating request accepted" in result.stdout, result.stdout[-8000:]
        finally:
            mock.stop()
