"""The imports a user brings from other tools, run with the real binary: a Hurl file sent and
checked against the demo, exported back; an Insomnia export of several workspaces; a Postman
environment added to a collection; a Hurl file Hurl refuses; a HAR file's cookies put into
the jar and sent."""
from __future__ import annotations

import json
import stat
from pathlib import Path
from urllib.parse import urlparse

import pytest

from test_send import run

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "Tests" / "Fixtures"


def test_a_hurl_file_is_imported_sent_with_its_checks_and_exported_back(explorer_bin, tmp_path, demo):
    base = demo.urls["local"]
    source = tmp_path / "orders.hurl"
    source.write_text(
        "# Echo a form\n"
        f"POST {base}/echo\n"
        "[FormParams]\n"
        "item: apple\n"
        "count: 3\n"
        "HTTP 200\n"
        "[Captures]\n"
        'method: jsonpath "$.method"\n'
        "[Asserts]\n"
        'jsonpath "$.method" == "POST"\n'
        'jsonpath "$.body" contains "item=apple"\n'
        'header "Content-Type" count == 1\n'
    )
    collection = tmp_path / "explorer.yaml"
    imported = run(explorer_bin, tmp_path, "import", "hurl", str(source), "--into", str(collection))
    assert imported.returncode == 0, imported.stderr
    assert "added 1" in imported.stderr, imported.stderr
    assert "kept in the endpoints' descriptions" in imported.stderr, imported.stderr

    sent = run(explorer_bin, tmp_path, "send", "Echo a form", "--collection", str(collection), "--env", "default")
    assert sent.returncode == 0, sent.stderr
    assert b"item=apple" in sent.stdout

    exported = run(explorer_bin, tmp_path, "export", "hurl", "Echo a form", "--collection", str(collection))
    assert exported.returncode == 0, exported.stderr
    text = exported.stdout.decode()
    assert f"POST {base}/echo" in text and "[FormParams]" in text and 'jsonpath "$.method" == "POST"' in text, text
    again = tmp_path / "again.hurl"
    again.write_text(text)
    reimported = run(explorer_bin, tmp_path, "import", "hurl", str(again))
    assert reimported.returncode == 0, reimported.stderr
    assert b"item: apple" in reimported.stdout and b'jsonpath $.body contains "item=apple"' in reimported.stdout, reimported.stdout


def test_a_file_hurl_refuses_is_refused_at_hurls_line_and_column(explorer_bin, tmp_path):
    source = FIXTURES / "hurl" / "errors" / "invalid_section.hurl"
    result = run(explorer_bin, tmp_path, "import", "hurl", str(source))
    assert result.returncode == 1
    assert f"{source}:2:2:" in result.stderr and "the section is not valid" in result.stderr, result.stderr


def test_an_insomnia_export_of_several_workspaces_is_a_folder_each_or_the_one_chosen(explorer_bin, tmp_path):
    export = FIXTURES / "insomnia" / "multiple-workspaces.yaml"
    everything = run(explorer_bin, tmp_path, "import", "insomnia", str(export))
    assert everything.returncode == 0, everything.stderr
    assert b"folder: collection 1" in everything.stdout or b"name: collection 1" in everything.stdout, everything.stdout

    one = run(explorer_bin, tmp_path, "import", "insomnia", str(export), "--workspace", "Swagger Petstore V3 YAML 1.0.0")
    assert one.returncode == 0, one.stderr
    assert one.stdout.startswith(b"name: Swagger Petstore V3 YAML 1.0.0"), one.stdout
    assert b"collection 1" not in one.stdout

    missing = run(explorer_bin, tmp_path, "import", "insomnia", str(export), "--workspace", "nope")
    assert missing.returncode == 1
    assert '"collection 1"' in missing.stderr, missing.stderr


def test_a_postman_environment_alone_goes_into_a_collection_with_its_secrets(explorer_bin, tmp_path, demo):
    collection = tmp_path / "explorer.yaml"
    collection.write_text(
        "name: Shop\n"
        f"environments:\n  - name: local\n    base_url: {demo.urls['local']}\n"
        "endpoints:\n  - name: Echo\n    method: GET\n    path: /echo\n    headers: { X-Key: \"{{apiKey}}\" }\n"
    )
    environment = tmp_path / "staging.postman_environment.json"
    environment.write_text(json.dumps({
        "name": "staging",
        "values": [
            {"key": "apiKey", "value": "s3cr3t-value", "type": "secret", "enabled": True},
            {"key": "region", "value": "eu", "type": "default", "enabled": True},
        ],
        "_postman_variable_scope": "environment",
    }))
    added = run(explorer_bin, tmp_path, "import", "postman", str(environment), "--into", str(collection))
    assert added.returncode == 0, added.stderr
    assert 'added the environment "staging"' in added.stderr, added.stderr
    text = collection.read_text()
    assert "name: staging" in text and "secrets: [apiKey]" in text, text

    # Sent in the new environment, its value reaches the server (stdout is the body as answered).
    sent = run(explorer_bin, tmp_path, "send", "Echo", "--collection", str(collection), "--env", "staging")
    assert sent.returncode == 0, sent.stderr
    assert b'"X-Key" : "s3cr3t-value"' in sent.stdout, sent.stdout

    environment.write_text(json.dumps({"name": "staging", "values": [{"key": "apiKey", "value": "rotated", "type": "secret"}]}))
    replaced = run(explorer_bin, tmp_path, "import", "postman", str(environment), "--into", str(collection))
    assert replaced.returncode == 0, replaced.stderr
    assert 'replaced the variables of the environment "staging"' in replaced.stderr, replaced.stderr
    text = collection.read_text()
    assert "rotated" in text and "region" not in text and text.count("name: staging") == 1, text



@pytest.mark.parametrize("kind,fixture", [
    ("postman", "postman/sample-collection.json"),
    ("har", "har/firefox_post_form.har"),
    ("insomnia", "insomnia/insomnia_v4.json"),
    ("http", "http/petstore.http"),
    ("openapi", "openapi/oai-petstore.yaml"),
])
def test_a_file_over_the_document_size_limit_is_refused_naming_the_limit(explorer_bin, tmp_path, kind, fixture):
    source = FIXTURES / fixture
    size = source.stat().st_size
    limited = run(explorer_bin, tmp_path, "import", kind, str(source), env={"EXPLORER_MAX_DOCUMENT_SIZE": str(size - 1)})
    assert limited.returncode != 0
    assert f"{size} bytes, over the limit of {size - 1} bytes" in limited.stderr, limited.stderr
    assert "EXPLORER_MAX_DOCUMENT_SIZE" in limited.stderr and str(source) in limited.stderr
    allowed = run(explorer_bin, tmp_path, "import", kind, str(source), env={"EXPLORER_MAX_DOCUMENT_SIZE": str(size)})
    assert allowed.returncode == 0, allowed.stderr


def test_a_hars_cookies_go_into_the_jar_and_send_sends_them(explorer_bin, tmp_path, demo):
    base = demo.urls["local"]
    har = tmp_path / "shop.har"
    har.write_text(json.dumps({"log": {"version": "1.2", "creator": {"name": "Chrome"}, "entries": [
        {"request": {"method": "GET", "url": f"{base}/cookies", "httpVersion": "HTTP/1.1",
                     "headers": [{"name": "Cookie", "value": "session=s3cr3t-session; theme=dark"}],
                     "cookies": [{"name": "session", "value": "s3cr3t-session", "path": "/", "httpOnly": True,
                                  "expires": "2099-01-01T00:00:00.000Z", "sameSite": "Lax"},
                                 {"name": "theme", "value": "dark"}]}},
    ]}}))
    collection = tmp_path / "explorer.yaml"

    refused = run(explorer_bin, tmp_path, "import", "har", str(har), "--cookies", "jar")
    assert refused.returncode != 0 and "--cookies jar needs --into" in refused.stderr, refused.stderr

    imported = run(explorer_bin, tmp_path, "import", "har", str(har), "--cookies", "jar", "--into", str(collection))
    assert imported.returncode == 0, imported.stderr
    assert 'Kept 2 cookies in the jar of the environment "default" (session, theme)' in imported.stderr, imported.stderr
    assert "s3cr3t" not in imported.stderr and "s3cr3t" not in collection.read_text()
    jar_file = tmp_path / "state" / "explorer" / "cookies.json"
    assert stat.S_IMODE(jar_file.stat().st_mode) == 0o600
    (jars,) = json.loads(jar_file.read_text()).values()
    session = next(cookie for cookie in jars["default"] if cookie["name"] == "session")
    assert session["httpOnly"] is True and session["sameSite"] == "Lax" and session["domain"] == "127.0.0.1"

    sent = run(explorer_bin, tmp_path, "send", f"GET {urlparse(base).path}/cookies", "--collection", str(collection), "--env", "default", "--check-status")
    assert sent.returncode == 0, sent.stderr
    assert json.loads(sent.stdout)["cookies"] == {"session": "s3cr3t-session", "theme": "dark"}

    # As before, by default: a Cookie header in the collection, and a word on where the cookies went.
    header = run(explorer_bin, tmp_path, "import", "har", str(har))
    assert header.returncode == 0, header.stderr
    assert b"session=s3cr3t-session; theme=dark" in header.stdout


def test_an_import_that_would_not_load_is_refused_and_nothing_is_written(explorer_bin, tmp_path):
    har = tmp_path / "odd.har"
    har.write_text(json.dumps({"log": {"entries": [{"request": {"method": "G ET", "url": "https://a.test/x"}}]}}))
    collection = tmp_path / "explorer.yaml"
    result = run(explorer_bin, tmp_path, "import", "har", str(har), "--into", str(collection))
    assert result.returncode == 1
    assert "does not load, so nothing was written" in result.stderr and '"G ET" is not a valid HTTP method' in result.stderr, result.stderr
    assert not collection.exists()
