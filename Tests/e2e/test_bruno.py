"""explorer import bruno and explorer export bruno with the real binary: a Bruno folder made
here is imported into a collection, sent to the demo, written back as Bruno files and read
again; Bruno's own test collection imports with its one summary of what cannot run."""
from __future__ import annotations

from pathlib import Path

from test_send import run

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "Tests" / "Fixtures" / "bruno"


def test_a_bruno_folder_is_imported_sent_and_exported_back(explorer_bin, tmp_path, demo):
    source = tmp_path / "bruno"
    (source / "environments").mkdir(parents=True)
    (source / "bruno.json").write_text('{"version": "1", "name": "shop", "type": "collection"}')
    (source / "collection.bru").write_text("headers {\n  X-Shop: yes\n}\n")
    (source / "environments" / "local.bru").write_text(f"vars {{\n  host: {demo.urls['local']}\n}}\n")
    (source / "echo form.bru").write_text(
        "meta {\n  name: Echo form\n  seq: 1\n}\n\n"
        "post {\n  url: {{host}}/echo\n  body: formUrlEncoded\n  auth: none\n}\n\n"
        "body:form-urlencoded {\n  item: apple\n  ~count: 3\n}\n\n"
        "assert {\n  res.status: eq 200\n}\n\n"
        "tests {\n  test('x', () => {})\n}\n"
    )
    collection = tmp_path / "explorer.yaml"
    imported = run(explorer_bin, tmp_path, "import", "bruno", str(source), "--into", str(collection))
    assert imported.returncode == 0, imported.stderr
    assert '"Echo form" (tests)' in imported.stderr, imported.stderr

    sent = run(explorer_bin, tmp_path, "send", "Echo form", "--collection", str(collection), "--env", "local")
    assert sent.returncode == 0, sent.stderr
    assert b"item=apple" in sent.stdout and b"count" not in sent.stdout, sent.stdout
    assert b"yes" in sent.stdout, sent.stdout  # the collection's header went with it

    out = tmp_path / "back"
    exported = run(explorer_bin, tmp_path, "export", "bruno", "--output", str(out), "--collection", str(collection))
    assert exported.returncode == 0, exported.stderr
    text = (out / "Echo form.bru").read_text()
    assert "post {\n  url: {{host}}/echo" in text and "~count: 3" in text and "res.status: eq 200" in text, text
    assert (out / "environments" / "local.bru").exists()
    again = run(explorer_bin, tmp_path, "export", "bruno", "--output", str(out), "--collection", str(collection))
    assert again.returncode == 1 and "--force" in again.stderr, again.stderr
    reimported = run(explorer_bin, tmp_path, "import", "bruno", str(out))
    assert reimported.returncode == 0, reimported.stderr
    assert b"item: apple" in reimported.stdout, reimported.stdout


def test_brunos_testbench_imports_with_one_summary(explorer_bin, tmp_path):
    result = run(explorer_bin, tmp_path, "import", "bruno", str(FIXTURES / "testbench"))
    assert result.returncode == 0, result.stderr
    assert result.stderr.count("scripts and tests do not run") == 1, result.stderr
    assert b"name: ping" in result.stdout


def test_a_bru_file_bruno_refuses_is_refused_at_its_line(explorer_bin, tmp_path):
    source = tmp_path / "bad.bru"
    source.write_text("meta {\n  name: bad\n}\n\nget {\n  url https://a.test/\n}\n")
    result = run(explorer_bin, tmp_path, "import", "bruno", str(source))
    assert result.returncode != 0
    assert f"{source}:6" in result.stderr and "is not name: value" in result.stderr, result.stderr
