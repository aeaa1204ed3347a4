"""Responses checked against the collection's OpenAPI document, end to end: `send --validate`,
`validate: true`, `assert: - schema`, `explorer run` (JUnit too), and `import openapi`
linking the document. The real binary against the real demo API, with a document written
here that describes some of the demo truthfully and some of it wrongly."""
from __future__ import annotations

import json
import xml.etree.ElementTree as ElementTree
from pathlib import Path

from test_send import run

# What the demo really answers for GET /users/{id} (id integer, name, email …), and a
# second operation that promises what the demo does not give (a string id, an `age`).
DOCUMENT = """\
openapi: 3.1.0
info: {title: Demo users, version: "1"}
servers: [{url: "http://localhost/v1"}]
paths:
  /users/{id}:
    get:
      operationId: getUser
      parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
      responses:
        "200":
          description: the user
          content:
            application/json:
              schema: {$ref: "#/components/schemas/User"}
        "404":
          description: no such user
          content:
            application/problem+json:
              schema: {type: object, required: [status, title]}
  /posts/{id}:
    get:
      operationId: getPost
      parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
      responses:
        "200":
          description: the post, as the document wrongly says it is
          content:
            application/json:
              schema:
                type: object
                required: [id, age]
                properties:
                  id: {type: string}
                  broken: {$ref: "#/components/schemas/Nowhere"}
components:
  schemas:
    User:
      type: object
      required: [id, name, email]
      properties:
        id: {type: integer}
        name: {type: string}
        email: {type: string}
"""


def collection(tmp_path: Path, demo, *, validate: bool = False, extra: str = "") -> Path:
    (tmp_path / "api.yaml").write_text(DOCUMENT)
    path = tmp_path / "explorer.yaml"
    path.write_text(f"""\
name: Contract
openapi: api.yaml
{"validate: true" if validate else ""}
environments:
  - name: local
    base_url: {demo.urls['local']}
endpoints:
  - name: Get user
    path: /users/1
  - name: Missing user
    path: /users/9999
  - name: Get post
    path: /posts/1
  - name: Health
    path: /health
{extra}""")
    return path


def send(explorer_bin, tmp_path, path, *args):
    return run(explorer_bin, tmp_path, "send", "--collection", str(path), "--no-history", *args)


def test_send_validate_passes_a_conforming_answer_and_exits_3_on_violations(explorer_bin, tmp_path, demo):
    path = collection(tmp_path, demo)
    good = send(explorer_bin, tmp_path, path, "Get user", "--validate")
    assert good.returncode == 0, good.stderr
    assert json.loads(good.stdout)["id"] == 1
    assert "schema" not in good.stderr

    # A declared error status with its own media type conforms too.
    missing = send(explorer_bin, tmp_path, path, "Missing user", "--validate")
    assert missing.returncode == 0, missing.stderr

    bad = send(explorer_bin, tmp_path, path, "Get post", "--validate")
    assert bad.returncode == 3
    assert json.loads(bad.stdout)["id"] == 1, "the body is still printed"
    assert "✗ schema: 2 violations of getPost in api.yaml" in bad.stderr
    assert "/id: 1 is not of type string (#/paths/~1posts~1{id}/get/responses/200/content/application~1json/schema/properties/id/type)" in bad.stderr
    assert 'the required property "age" is missing' in bad.stderr

    # Without --validate (and no validate: true) nothing is checked.
    plain = send(explorer_bin, tmp_path, path, "Get post")
    assert plain.returncode == 0, plain.stderr


def test_the_document_s_own_mistake_is_a_warning_told_once(explorer_bin, tmp_path, demo):
    path = collection(tmp_path, demo)
    bad = send(explorer_bin, tmp_path, path, "Get post", "--validate")
    warnings = [line for line in bad.stderr.splitlines() if line.startswith("warning:")]
    assert len(warnings) == 1 and "Nowhere" in warnings[0], bad.stderr


def test_validate_true_checks_every_response_and_json_carries_the_violations(explorer_bin, tmp_path, demo):
    path = collection(tmp_path, demo, validate=True)
    bad = send(explorer_bin, tmp_path, path, "Get post", "--json")
    assert bad.returncode == 3
    schema = json.loads(bad.stdout)["schema"]
    assert schema["operation"] == "getPost" and schema["passed"] is False
    assert {violation["at"] for violation in schema["violations"]} == {"/id", ""}

    # An endpoint the document does not describe is not a failure of validate: true.
    health = send(explorer_bin, tmp_path, path, "Health")
    assert health.returncode == 0, health.stderr
    assert "note: api.yaml describes no operation for GET /health; the response was not checked." in health.stderr


def test_assert_schema_makes_one_endpoint_strict(explorer_bin, tmp_path, demo):
    path = collection(tmp_path, demo, extra="""\
  - name: Strict post
    path: /posts/1
    assert:
      - status == 200
      - schema
  - name: Strict health
    path: /health
    assert:
      - schema
""")
    strict = send(explorer_bin, tmp_path, path, "Strict post")
    assert strict.returncode == 3
    assert "✗ schema: 2 violations of getPost in api.yaml" in strict.stderr
    # An endpoint asking for the check that the document does not describe fails, saying so.
    health = send(explorer_bin, tmp_path, path, "Strict health")
    assert health.returncode == 3
    assert "✗ schema: api.yaml describes no operation for GET /health" in health.stderr


def test_run_counts_violations_as_failed_checks_in_the_table_and_junit(explorer_bin, tmp_path, demo):
    path = collection(tmp_path, demo)
    report = tmp_path / "junit.xml"
    result = run(explorer_bin, tmp_path, "run", "--collection", str(path), "--validate", "--junit", str(report), "--no-history")
    assert result.returncode == 3, result.stderr
    table = result.stdout.decode()
    get_user = next(line for line in table.splitlines() if "Get user" in line)
    get_post = next(line for line in table.splitlines() if "Get post" in line)
    health = next(line for line in table.splitlines() if "Health" in line)
    assert "1/1" in get_user and "0/1" in get_post, table
    assert " - " in health, "an endpoint the document does not describe is not checked"
    cases = {case.get("name"): case for case in ElementTree.parse(report).getroot().iter("testcase")}
    assert cases["Get user"].find("failure") is None
    failure = cases["Get post"].find("failure")
    assert failure is not None and "2 violations of getPost" in failure.get("message")
    assert "/id: 1 is not of type string" in failure.text


def test_validation_without_a_document_is_a_clear_error(explorer_bin, tmp_path, demo):
    path = tmp_path / "bare.yaml"
    path.write_text(f"""\
name: Bare
environments: [{{name: local, base_url: "{demo.urls['local']}"}}]
endpoints: [{{name: Get user, path: /users/1}}]
""")
    result = send(explorer_bin, tmp_path, path, "Get user", "--validate")
    assert result.returncode == 2
    assert "names no OpenAPI document" in result.stderr and "openapi:" in result.stderr

    (tmp_path / "broken.yaml").write_text("openapi: 3.1.0\npaths: [\n")
    text = path.read_text().replace("name: Bare\n", "name: Bare\nopenapi: broken.yaml\n")
    path.write_text(text)
    result = send(explorer_bin, tmp_path, path, "Get user", "--validate")
    assert result.returncode == 2
    assert "broken.yaml" in result.stderr and "line" in result.stderr


def test_import_openapi_links_the_document_and_each_operation(explorer_bin, tmp_path, demo):
    (tmp_path / "specs").mkdir()
    (tmp_path / "specs" / "api.yaml").write_text(DOCUMENT)
    target = tmp_path / "explorer.yaml"
    result = run(explorer_bin, tmp_path, "import", "openapi", "specs/api.yaml", "--into", str(target))
    assert result.returncode == 0, result.stderr
    text = target.read_text()
    assert "openapi: specs/api.yaml" in text
    assert "operation: getUser" in text and "operation: getPost" in text

    # The imported collection validates as it is, once its environment points at the demo.
    text = text.replace("http://localhost/v1", demo.urls["local"]).replace('"{{id}}"', '"1"')
    target.write_text(text)
    listed = run(explorer_bin, tmp_path, "run", "--collection", str(target), "--validate", "--no-history", "--var", "id=1")
    assert listed.returncode == 3, listed.stderr
    assert "2 violations of getPost" in listed.stdout.decode() + listed.stderr


def test_openapi_refresh_lists_what_changed_since_the_import_and_adds_on_request(explorer_bin, tmp_path):
    (tmp_path / "api.yaml").write_text(DOCUMENT)
    target = tmp_path / "explorer.yaml"
    assert run(explorer_bin, tmp_path, "import", "openapi", "api.yaml", "--into", str(target)).returncode == 0
    same = run(explorer_bin, tmp_path, "openapi", "refresh", "--collection", str(target))
    assert same.returncode == 0, same.stderr
    assert same.stdout.decode().strip() == "explorer.yaml matches api.yaml."

    # The document moves on: a new operation, one renamed, a required query parameter.
    changed = (DOCUMENT
               .replace("operationId: getPost", "operationId: showPost")
               .replace("      operationId: getUser\n      parameters: [",
                        "      operationId: getUser\n      parameters: [{name: fields, in: query, required: true, schema: {type: string}}, ")
               .replace("components:", "  /health:\n    get:\n      operationId: health\n      responses: {'200': {description: up}}\ncomponents:"))
    (tmp_path / "api.yaml").write_text(changed)
    before = target.read_text()
    drift = run(explorer_bin, tmp_path, "openapi", "refresh", "--collection", str(target))
    assert drift.returncode == 3, drift.stderr
    lines = drift.stdout.decode().splitlines()
    assert "+ health  GET /health  (in the document, not in the collection)" in lines
    assert any(line.startswith("+ showPost  GET /posts/") for line in lines)
    assert any(line.startswith("− ") and "getPost  (no longer in the document)" in line for line in lines)
    assert any(line.startswith("~ ") and "getUser: query + fields" in line for line in lines)
    assert target.read_text() == before, "refresh alone changes nothing"

    as_json = json.loads(run(explorer_bin, tmp_path, "openapi", "refresh", "--collection", str(target), "--json").stdout)
    assert [item["operation"] for item in as_json["added"]] == ["showPost", "health"], "in the document's order"
    assert [item["operation"] for item in as_json["removed"]] == ["getPost"]
    assert as_json["changed"][0]["changes"] == ["query + fields"]

    added = run(explorer_bin, tmp_path, "openapi", "refresh", "--collection", str(target), "--add")
    assert added.returncode == 3, "what was removed or changed is still different"
    assert "added 2 endpoint(s)" in added.stderr
    text = target.read_text()
    assert "operation: health" in text and "operation: showPost" in text
    again = run(explorer_bin, tmp_path, "openapi", "refresh", "--collection", str(target), "--json")
    assert json.loads(again.stdout)["added"] == []


def test_a_yaml_mistake_in_the_document_is_one_line_naming_its_place(explorer_bin, tmp_path):
    (tmp_path / "api.yaml").write_text("openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths:\n  /a:\n    get: {}\n    get: {}\n")
    result = run(explorer_bin, tmp_path, "import", "openapi", "api.yaml")
    assert result.returncode == 1
    assert result.stderr.strip().endswith("it is not valid YAML: line 5, column 5: duplicate keys get in one mapping")
    assert len(result.stderr.strip().splitlines()) == 1, "the document is not dumped"
