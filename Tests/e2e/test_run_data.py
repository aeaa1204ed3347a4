"""`explorer run --data FILE` and `--iterations N` end to end: the real binary against the real
demo API, whose `/echo` route answers with the request it received, so the rows are seen
arriving; and the one-line sentences for data files that cannot be used."""
from __future__ import annotations

import json
from pathlib import Path

from test_send import one_sentence, run


def collection(tmp_path: Path, demo, extra: str = "") -> Path:
    path = tmp_path / "data.yaml"
    path.write_text(f"""name: Data
environments:
  - name: local
    base_url: {demo.urls['local']}
    variables: {{ city: Lyon, who: environment }}
endpoints:
  - name: Echo
    path: /echo
    query: {{ name: "{{{{name}}}}", city: "{{{{city}}}}", who: "{{{{who}}}}" }}
    assert:
      - jsonpath $.args.name == "{{{{name}}}}"
      - jsonpath $.args.city == "{{{{city}}}}"
{extra}""")
    return path


def run_data(explorer_bin, tmp_path, demo, *args, extra: str = "", env: dict[str, str] | None = None):
    return run(explorer_bin, tmp_path, "run", "--collection", str(collection(tmp_path, demo, extra)),
               "--env", "local", *args, env=env)


def echoed_args(explorer_bin, tmp_path, count: int) -> list[dict]:
    """The `args` the demo echoed for the first `count` requests of the history (a fresh one
    in each test's folder), oldest first."""
    answers = []
    for history_id in range(1, count + 1):
        shown = run(explorer_bin, tmp_path, "history", "show", str(history_id), "--json")
        assert shown.returncode == 0, shown.stderr
        answers.append(json.loads(json.loads(shown.stdout)["body"])["args"])
    return answers


def test_each_csv_row_is_an_iteration_whose_values_reach_the_server(explorer_bin, tmp_path, demo):
    rows = tmp_path / "people.csv"
    rows.write_bytes(b'\xef\xbb\xbfname,city\r\n"Ada, Countess","Lon""don"\r\nBob,\r\n')
    result = run_data(explorer_bin, tmp_path, demo, "--data", str(rows), "--json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert [r["iteration"] for r in report["results"]] == [1, 2]
    assert report["data"] == str(rows)
    assert [(i["iteration"], i["row"], i["line"]) for i in report["iterations"]] == [(1, 1, 2), (2, 2, 3)]
    assert all(r["outcome"] == "passed" for r in report["results"]), report
    args = echoed_args(explorer_bin, tmp_path, 2)
    assert [a["name"] for a in args] == ["Ada, Countess", "Bob"]
    assert [a["city"] for a in args] == ['Lon"don', ""], "an empty field is a value: it wins over the environment"
    assert [a["who"] for a in args] == ["environment", "environment"], "what no column gives: the environment's"


def test_var_wins_over_the_row_and_the_table_numbers_iterations(explorer_bin, tmp_path, demo):
    rows = tmp_path / "people.json"
    rows.write_text('[{"name": "Ada", "city": 1.50}, {"name": "Bob", "city": true}]')
    result = run_data(explorer_bin, tmp_path, demo, "--data", str(rows), "--var", "name=Zed")
    assert result.returncode == 0, result.stderr
    table = result.stdout.decode()
    assert "#1 Echo" in table and "#2 Echo" in table, table
    args = echoed_args(explorer_bin, tmp_path, 2)
    assert [a["name"] for a in args] == ["Zed", "Zed"]
    assert [a["city"] for a in args] == ["1.50", "true"], "a JSON value that is not a string is its JSON text"


def test_junit_names_each_testcase_with_its_iteration_and_row(explorer_bin, tmp_path, demo):
    rows = tmp_path / "people.csv"
    rows.write_text("name,city\nAda,Paris\nBob,Rome\n")
    junit = tmp_path / "report.xml"
    result = run_data(explorer_bin, tmp_path, demo, "--data", str(rows), "--junit", str(junit), "--no-history")
    assert result.returncode == 0, result.stderr
    xml = junit.read_text()
    assert 'name="Echo #1 (row 1 (line 2))"' in xml and 'name="Echo #2 (row 2 (line 3))"' in xml, xml
    assert '<property name="data"' in xml


def test_iterations_repeats_and_repeat_is_the_same_option(explorer_bin, tmp_path, demo):
    for option in ("--iterations", "--repeat"):
        result = run_data(explorer_bin, tmp_path, demo, option, "3", "--var", "name=a", "--json", "--no-history")
        assert result.returncode == 0, result.stderr
        report = json.loads(result.stdout)
        assert [r["iteration"] for r in report["results"]] == [1, 2, 3]
        assert [i["row"] for i in report["iterations"]] == [None, None, None]
    both = run_data(explorer_bin, tmp_path, demo, "--iterations", "2", "--data", str(tmp_path / "x.csv"))
    assert both.returncode == 2
    assert one_sentence(both.stderr), both.stderr


def test_a_column_the_collection_never_uses_is_one_warning(explorer_bin, tmp_path, demo):
    rows = tmp_path / "people.csv"
    rows.write_text("name,city,nickname\nAda,Paris,ada\nBob,Rome,bob\n")
    result = run_data(explorer_bin, tmp_path, demo, "--data", str(rows), "--no-history")
    assert result.returncode == 0, result.stderr
    warnings = [line for line in result.stderr.splitlines() if "nickname" in line]
    assert len(warnings) == 1, result.stderr
    assert warnings[0].startswith(f"warning: {rows}: the column \"nickname\" is used by no {{{{nickname}}}}")


def test_a_variable_neither_the_row_nor_the_environment_gives_names_both(explorer_bin, tmp_path, demo):
    rows = tmp_path / "people.json"
    rows.write_text('[{"name": "Ada", "id": "7"}, {"name": "Bob"}]')
    extra = "  - name: Get\n    path: /echo/{{id}}\n"
    result = run_data(explorer_bin, tmp_path, demo, "--data", str(rows), "--no-history", extra=extra)
    assert result.returncode == 2, result.stderr
    table = result.stdout.decode()
    line = next(line for line in table.splitlines() if "{{id}}" in line).strip()
    assert line.startswith(f"{rows} row 2: "), line
    assert "the variable {{id}} used in the path of endpoint \"Get\" is given by neither the row nor the " \
           f"environment: add the column id to {rows}, define it in the environment, or pass --var id=VALUE." in line


def test_bad_data_files_are_one_sentence_each_naming_the_file_and_line(explorer_bin, tmp_path, demo):
    cases = {
        "open.csv": ('name,city\nAda,Paris\nBob,"Rome\n', ":3:5: the quoted field that starts here never closes"),
        "object.json": ('{"name": "Ada"}', ":1: the JSON is an object, not an array of objects"),
        "numbers.json": ('[{"name": "Ada"}, 2]', ": element 2 of the array is a number, not an object"),
        "rows.yaml": ("- name: Ada\n", ": a .yaml file is neither CSV nor JSON"),
        "short.csv": ("name,city\nAda\n", ":2: this row has 1 field where the header has 2"),
        "missing.csv": (None, ": the data file cannot be read"),
    }
    for name, (content, expected) in cases.items():
        path = tmp_path / name
        if content is not None:
            path.write_text(content)
        result = run_data(explorer_bin, tmp_path, demo, "--data", str(path), "--no-history")
        assert result.returncode == 2, (name, result.stderr)
        assert one_sentence(result.stderr), (name, result.stderr)
        assert result.stderr.startswith(str(path) + expected), (name, result.stderr)
        assert result.stdout == b"", "nothing was sent"
    binary = tmp_path / "rows.bin"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    result = run_data(explorer_bin, tmp_path, demo, "--data", str(binary), "--no-history")
    assert result.returncode == 2
    assert "is neither CSV nor JSON" in result.stderr and one_sentence(result.stderr), result.stderr


def test_a_data_file_over_the_limit_names_the_variable_that_raises_it(explorer_bin, tmp_path, demo):
    rows = tmp_path / "people.csv"
    rows.write_text("name,city\nAda,Paris\n")
    result = run_data(explorer_bin, tmp_path, demo, "--data", str(rows), env={"EXPLORER_MAX_DATA_SIZE": "8"})
    assert result.returncode == 2
    assert one_sentence(result.stderr), result.stderr
    assert "over the limit of 8 bytes: set EXPLORER_MAX_DATA_SIZE=" in result.stderr
    raised = run_data(explorer_bin, tmp_path, demo, "--data", str(rows), "--no-history",
                      env={"EXPLORER_MAX_DATA_SIZE": "1K"})
    assert raised.returncode == 0, raised.stderr


# MARK: - Order: --bail, --delay

STEPS = """\
  - name: Second
    path: /echo
    query: { step: "2" }
    assert: [ status == 404 ]
  - { name: Third, path: /echo, query: { step: "3" } }
  - { name: Fourth, path: /echo, query: { step: "4" } }
"""


def test_bail_stops_at_the_first_failure_and_says_how_many_were_not_run(explorer_bin, tmp_path, demo):
    result = run_data(explorer_bin, tmp_path, demo, "--bail", "--iterations", "2", "--var", "name=a",
                      "--no-history", extra=STEPS)
    assert result.returncode == 3, result.stderr
    table = result.stdout.decode()
    assert "Third" not in table and "Fourth" not in table, table
    assert "Stopped at the first failure (--bail): 6 requests not run." in table, table
    as_json = run_data(explorer_bin, tmp_path, demo, "--fail-fast", "--var", "name=a", "--json", "--no-history",
                       extra=STEPS)
    report = json.loads(as_json.stdout)
    assert [r["endpoint"] for r in report["results"]] == ["Echo", "Second"]
    assert (report["stopped"], report["notRun"]) == (True, 2), "--fail-fast is the same option"
    whole = run_data(explorer_bin, tmp_path, demo, "--var", "name=a", "--json", "--no-history", extra=STEPS)
    assert [r["endpoint"] for r in json.loads(whole.stdout)["results"]] == ["Echo", "Second", "Third", "Fourth"]
    assert (json.loads(whole.stdout)["stopped"], json.loads(whole.stdout)["notRun"]) == (False, 0)


def test_delay_waits_between_requests(explorer_bin, tmp_path, demo):
    result = run_data(explorer_bin, tmp_path, demo, "--delay", "300", "--var", "name=a", "--json", extra=STEPS)
    assert result.returncode == 3, result.stderr
    assert json.loads(result.stdout)["seconds"] >= 0.9, "three waits of 300 ms between four requests"
    times = []
    for history_id in range(1, 5):
        shown = run(explorer_bin, tmp_path, "history", "show", str(history_id), "--json")
        stamp = json.loads(shown.stdout)["time"]
        seconds = stamp[11:-1].split(":")
        times.append(int(seconds[0]) * 3600 + int(seconds[1]) * 60 + float(seconds[2]))
    gaps = [later - earlier for earlier, later in zip(times, times[1:])]
    assert all(gap >= 0.29 for gap in gaps), gaps
    refused = run_data(explorer_bin, tmp_path, demo, "--delay=-5")
    assert refused.returncode == 2 and one_sentence(refused.stderr), refused.stderr


# MARK: - Selection: tags

TAGGED = """\
  - {{ name: Health, path: /echo, query: {{ at: health }}, tags: [smoke] }}
  - folder: Users
    tags: [users]
    endpoints:
      - {{ name: List, path: /echo, query: {{ at: list }}, tags: [smoke] }}
      - {{ name: Export, path: /echo, query: {{ at: export }}, tags: [slow] }}
      - folder: Admin
        endpoints:
          - {{ name: Purge, path: /echo, query: {{ at: purge }}, tags: [smoke, slow] }}
  - {{ name: Untagged, path: /echo, query: {{ at: untagged }} }}
"""


def tagged_collection(tmp_path: Path, demo) -> Path:
    path = tmp_path / "tagged.yaml"
    path.write_text(f"""name: Tagged
environments: [{{ name: local, base_url: "{demo.urls['local']}" }}]
endpoints:
{TAGGED.format()}""")
    return path


def run_tagged(explorer_bin, tmp_path, demo, *args):
    result = run(explorer_bin, tmp_path, "run", "--collection", str(tagged_collection(tmp_path, demo)), "--json",
                 "--no-history", *args)
    return result, (json.loads(result.stdout) if result.stdout else None)


def test_tags_select_endpoints_with_their_folders_tags(explorer_bin, tmp_path, demo):
    result, report = run_tagged(explorer_bin, tmp_path, demo, "--tag", "smoke")
    assert result.returncode == 0, result.stderr
    assert [r["endpoint"] for r in report["results"]] == ["Health", "Users/List", "Users/Admin/Purge"]
    result, report = run_tagged(explorer_bin, tmp_path, demo, "--tag", "users")
    assert [r["endpoint"] for r in report["results"]] == ["Users/List", "Users/Export", "Users/Admin/Purge"], \
        "a folder's tags apply to everything in it, sub-folders too"
    result, report = run_tagged(explorer_bin, tmp_path, demo, "--tag", "smoke", "--tag", "slow",
                                "--exclude-tag", "users")
    assert [r["endpoint"] for r in report["results"]] == ["Health"], "any --tag; --exclude-tag wins"
    result, report = run_tagged(explorer_bin, tmp_path, demo, "Users", "--tag", "smoke")
    assert [r["endpoint"] for r in report["results"]] == ["Users/List", "Users/Admin/Purge"], "with a folder"


def test_tags_that_select_nothing_are_one_sentence(explorer_bin, tmp_path, demo):
    result, _ = run_tagged(explorer_bin, tmp_path, demo, "--tag", "smok")
    assert result.returncode == 2
    assert result.stderr.strip() == \
        'No endpoint or folder of the collection is tagged "smok" (its tags are smoke, users, slow). ' \
        'Did you mean "smoke"?'
    result, _ = run_tagged(explorer_bin, tmp_path, demo, "--tag", "slow", "--exclude-tag", "users")
    assert result.returncode == 2
    assert result.stderr.strip() == "No endpoint selected is tagged slow and not users: nothing to run."
