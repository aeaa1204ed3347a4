"""`explorer load` on unary gRPC methods against Python's grpcio interop server: one call at a time
(the worker on the dispatcher's event loop), two at once (a worker and a connection per loop) and
many at once (one connection, the workers on the global executor) all end every call with its
status, counted by name; over TLS too.
"""
from __future__ import annotations

import json

import pytest
from grpc_interop.harness import interop_server
from test_send import run

SERVICE = "grpc.testing.TestService"
ENDPOINTS = {
    "empty_unary": {"grpc": f"{SERVICE}/EmptyCall", "message": {}},
    "large_unary": {"grpc": f"{SERVICE}/UnaryCall",
                    "message": {"responseSize": 1000, "payload": {"body": "AAAA"}}},
    "status": {"grpc": f"{SERVICE}/UnaryCall",
               "message": {"responseStatus": {"code": 2, "message": "test status message"}}},
    # The endpoint's own limit on a message: the 1,006-byte answer is over it.
    "small_limit": {"grpc": f"{SERVICE}/UnaryCall", "max_message_size": "100",
                    "message": {"responseSize": 1000, "payload": {"body": "AAAA"}}},
}


@pytest.fixture(scope="module", params=["plaintext", "tls"])
def interop(request, tmp_path_factory):
    """The interop server (reflection v1) and a collection of its unary methods."""
    tls = request.param == "tls"
    folder = tmp_path_factory.mktemp(f"grpc-load-{request.param}")
    with interop_server(folder, reflection="v1", tls=tls) as server:
        lines = ["name: grpc load", "environments:", "  - name: local",
                 f"    base_url: {'grpcs' if tls else 'grpc'}://127.0.0.1:{server.port}"]
        if tls:
            lines.append("    tls: {ca_cert: certs/ca.pem}")
        lines.append("endpoints:")
        lines += ["  - " + json.dumps({"name": name, **endpoint}) for name, endpoint in ENDPOINTS.items()]
        collection = folder / "load.yaml"
        collection.write_text("\n".join(lines) + "\n", encoding="utf-8")
        yield folder, collection


def load(explorer_bin, interop, name: str, requests: int, concurrency: int) -> dict:
    folder, collection = interop
    result = run(explorer_bin, folder, "load", name, "--collection", str(collection), "-n", str(requests),
                 "-c", str(concurrency), "--json", "--no-history")
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


@pytest.mark.parametrize("concurrency", [1, 2, 16])
def test_every_call_of_a_load_ends_ok(explorer_bin, interop, concurrency):
    for name, size in (("empty_unary", 0), ("large_unary", 1006)):
        report = load(explorer_bin, interop, name, 40, concurrency)
        assert report["responses"] == 40 and report["failures"] == 0
        assert report["statuses"] == {"OK": 40}
        # Each response's message bytes are counted: an Empty is none; a SimpleResponse whose
        # payload has a 1,000-byte body is 1,006 (two tags, two 2-byte lengths).
        assert report["bytes"] == 40 * size


@pytest.mark.parametrize("concurrency", [1, 2])
def test_a_status_other_than_ok_is_counted_by_name(explorer_bin, interop, concurrency):
    report = load(explorer_bin, interop, "status", 10, concurrency)
    assert report["responses"] == 10 and report["failures"] == 0
    assert report["statuses"] == {"UNKNOWN": 10}


def test_the_endpoints_own_message_size_limit_holds_under_load(explorer_bin, interop):
    report = load(explorer_bin, interop, "small_limit", 5, 1)
    # Each answer over the endpoint's limit is refused on arrival, as send refuses it.
    assert report["statuses"] == {"RESOURCE_EXHAUSTED": 5} and report["failures"] == 0, report
    assert report["bytes"] == 0, report
