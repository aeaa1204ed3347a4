"""The gRPC interop client cases through the explorer: `explorer send --json` on a collection's
gRPC endpoints against Python's grpcio interop server (Tests/e2e/grpc_interop/server.py, itself
checked by test_grpc_interop_server.py), with the schema from reflection v1, from v1alpha only,
from a `protoset:` and from `protos:` (.proto files compiled with protoc), in plaintext and TLS.

The cases and their sizes are the interop spec's
(https://github.com/grpc/grpc/blob/master/doc/interop-test-descriptions.md).
"""
from __future__ import annotations

import base64
import json
import queue
import signal
import subprocess
import threading
from pathlib import Path

import pytest
from conftest import DEFAULT_TIMEOUT
from grpc_interop.harness import interop_server
from test_send import run

ECHO_INITIAL = "test_initial_metadata_value"
ECHO_TRAILING = base64.b64encode(b"\x0a\x0b\x0a\x0b\x0a\x0b").decode()
SPECIAL_MESSAGE = "\t\ntest with whitespace\r\nand Unicode BMP \u263a and non-BMP \U0001f608\t\n"
SERVICE = "grpc.testing.TestService"


def zeros(size: int) -> str:
    """A payload body of `size` zero bytes, as proto3 JSON writes bytes (base64)."""
    return base64.b64encode(b"\0" * size).decode()


def ping_pong_request(response_size: int, payload_size: int) -> dict:
    return {"responseType": "COMPRESSABLE", "responseParameters": [{"size": response_size}],
            "payload": {"body": zeros(payload_size)}}


# Each endpoint of the interop collection: name -> (method, message or messages, metadata).
ENDPOINTS: dict[str, dict] = {
    "empty_unary": {"grpc": f"{SERVICE}/EmptyCall", "message": {}},
    "large_unary": {"grpc": f"{SERVICE}/UnaryCall",
                    "message": {"responseType": "COMPRESSABLE", "responseSize": 314159,
                                "payload": {"body": zeros(271828)}}},
    "client_streaming": {"grpc": f"{SERVICE}/StreamingInputCall",
                         "messages": [{"payload": {"body": zeros(size)}} for size in (27182, 8, 1828, 45904)]},
    "server_streaming": {"grpc": f"{SERVICE}/StreamingOutputCall",
                         "message": {"responseType": "COMPRESSABLE",
                                     "responseParameters": [{"size": size} for size in (31415, 9, 2653, 58979)]}},
    "ping_pong": {"grpc": f"{SERVICE}/FullDuplexCall",
                  "messages": [ping_pong_request(response, payload)
                               for response, payload in zip((31415, 9, 2653, 58979), (27182, 8, 1828, 45904))]},
    "empty_stream": {"grpc": f"{SERVICE}/FullDuplexCall", "messages": []},
    "custom_metadata_unary": {"grpc": f"{SERVICE}/UnaryCall",
                              "message": {"responseSize": 314159, "payload": {"body": zeros(271828)}},
                              "metadata": {"x-grpc-test-echo-initial": ECHO_INITIAL,
                                           "x-grpc-test-echo-trailing-bin": ECHO_TRAILING}},
    "custom_metadata_full_duplex": {"grpc": f"{SERVICE}/FullDuplexCall",
                                    "messages": [ping_pong_request(314159, 271828)],
                                    "metadata": {"x-grpc-test-echo-initial": ECHO_INITIAL,
                                                 "x-grpc-test-echo-trailing-bin": ECHO_TRAILING}},
    "status_code_and_message_unary": {
        "grpc": f"{SERVICE}/UnaryCall",
        "message": {"responseStatus": {"code": 2, "message": "test status message"}}},
    "status_code_and_message_full_duplex": {
        "grpc": f"{SERVICE}/FullDuplexCall",
        "messages": [{"responseStatus": {"code": 2, "message": "test status message"}}]},
    "special_status_message": {"grpc": f"{SERVICE}/UnaryCall",
                               "message": {"responseStatus": {"code": 2, "message": SPECIAL_MESSAGE}}},
    "unimplemented_method": {"grpc": f"{SERVICE}/UnimplementedCall", "message": {}},
    "unimplemented_service": {"grpc": "grpc.testing.UnimplementedService/UnimplementedCall", "message": {}},
    # The spec's request, then one whose answer comes 10 s later: an endpoint's stream is closed
    # once its messages are sent, so the second keeps the server busy past the 1 ms deadline.
    "timeout_on_sleeping_server": {"grpc": f"{SERVICE}/FullDuplexCall",
                                   "messages": [{"payload": {"body": zeros(27182)}},
                                                {"responseParameters": [{"size": 1, "intervalUs": 10_000_000}]}]},
    # cancel_after_first_response: the second answer comes 30 s after the first; the test
    # interrupts the explorer once the first has been printed.
    "cancel_after_first_response": {
        "grpc": f"{SERVICE}/FullDuplexCall",
        "messages": [ping_pong_request(31415, 27182),
                     {"responseParameters": [{"size": 9, "intervalUs": 30_000_000}]}]},
    # cancel_after_begin: the client stream's messages come from stdin, which sends none.
    "cancel_after_begin": {"grpc": f"{SERVICE}/StreamingInputCall", "messages": []},
}


def write_collection(folder: Path, base_url: str, source: str, tls: bool) -> Path:
    """The interop collection in `folder`, its schema from `source` (reflection, protoset, protos)."""
    lines = ["name: grpc interop"]
    if source == "protoset":
        lines.append("protoset: interop.protoset")
    if source == "protos":
        from grpc_interop import server
        server.lay_out_testing_protos(folder / "protos")
        lines.append("protos: {files: [protos/src/proto/grpc/testing/test.proto], import_paths: [protos]}")
    lines += ["environments:", "  - name: local", f"    base_url: {base_url}"]
    if tls:
        lines.append("    tls: {ca_cert: certs/ca.pem}")
    lines.append("endpoints:")
    for name, endpoint in ENDPOINTS.items():
        lines.append("  - " + json.dumps({"name": name, **endpoint}, ensure_ascii=False))
    path = folder / "interop.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


# name -> (the server's reflection, the collection's schema source, TLS)
CONFIGURATIONS = {
    "reflection-v1": ("v1", "reflection", False),
    "reflection-v1alpha": ("v1alpha", "reflection", False),
    "protoset": ("none", "protoset", False),
    "protos": ("none", "protos", False),
    "tls": ("v1", "reflection", True),
}


@pytest.fixture(scope="module", params=list(CONFIGURATIONS))
def interop(request, tmp_path_factory):
    """A running interop server and the collection that reaches it, per configuration."""
    reflection, source, tls = CONFIGURATIONS[request.param]
    folder = tmp_path_factory.mktemp(f"interop-{request.param}")
    with interop_server(folder, reflection=reflection, tls=tls, protoset=source == "protoset") as server:
        scheme = "grpcs" if tls else "grpc"
        yield folder, write_collection(folder, f"{scheme}://127.0.0.1:{server.port}", source, tls)


def send(explorer_bin, interop, name: str, *options: str) -> tuple[subprocess.CompletedProcess, dict]:
    folder, collection = interop
    result = run(explorer_bin, folder, "send", "--collection", str(collection), "--env", "local", name,
                 "--json", "--no-history", *options)
    assert result.stdout, result.stderr
    return result, json.loads(result.stdout)["grpc"]


def body_sizes(messages: list[dict]) -> list[int]:
    return [len(base64.b64decode(message.get("payload", {}).get("body", ""))) for message in messages]


def test_empty_unary(explorer_bin, interop):
    result, grpc = send(explorer_bin, interop, "empty_unary")
    assert (result.returncode, grpc["status"], grpc["code"], grpc["messages"]) == (0, "OK", 0, [{}]), result.stderr


def test_large_unary(explorer_bin, interop):
    result, grpc = send(explorer_bin, interop, "large_unary")
    assert result.returncode == 0, result.stderr
    assert body_sizes(grpc["messages"]) == [314159]
    assert base64.b64decode(grpc["messages"][0]["payload"]["body"]) == b"\0" * 314159


def test_client_streaming(explorer_bin, interop):
    result, grpc = send(explorer_bin, interop, "client_streaming")
    assert result.returncode == 0, result.stderr
    assert grpc["messages"] == [{"aggregatedPayloadSize": 74922}]


def test_server_streaming(explorer_bin, interop):
    result, grpc = send(explorer_bin, interop, "server_streaming")
    assert result.returncode == 0, result.stderr
    assert body_sizes(grpc["messages"]) == [31415, 9, 2653, 58979]


def test_ping_pong(explorer_bin, interop):
    result, grpc = send(explorer_bin, interop, "ping_pong")
    assert (result.returncode, grpc["status"]) == (0, "OK"), result.stderr
    assert body_sizes(grpc["messages"]) == [31415, 9, 2653, 58979]


def test_empty_stream(explorer_bin, interop):
    result, grpc = send(explorer_bin, interop, "empty_stream")
    assert (result.returncode, grpc["status"], grpc["messages"]) == (0, "OK", []), result.stderr


@pytest.mark.parametrize("name,sizes", [("custom_metadata_unary", [314159]),
                                        ("custom_metadata_full_duplex", [314159])])
def test_custom_metadata(explorer_bin, interop, name, sizes):
    result, grpc = send(explorer_bin, interop, name)
    assert result.returncode == 0, result.stderr
    assert body_sizes(grpc["messages"]) == sizes
    assert grpc["headers"]["x-grpc-test-echo-initial"] == ECHO_INITIAL
    assert grpc["trailers"]["x-grpc-test-echo-trailing-bin"] == ECHO_TRAILING


@pytest.mark.parametrize("name,message", [
    ("status_code_and_message_unary", "test status message"),
    ("status_code_and_message_full_duplex", "test status message"),
    ("special_status_message", SPECIAL_MESSAGE),
])
def test_status_code_and_message(explorer_bin, interop, name, message):
    result, grpc = send(explorer_bin, interop, name)
    # grpcurl's exit codes: 64 + the status code.
    assert result.returncode == 64 + 2, result.stderr
    assert (grpc["status"], grpc["code"], grpc["message"]) == ("UNKNOWN", 2, message)


@pytest.mark.parametrize("name", ["unimplemented_method", "unimplemented_service"])
def test_unimplemented(explorer_bin, interop, name):
    result, grpc = send(explorer_bin, interop, name)
    assert result.returncode == 64 + 12, result.stderr
    assert (grpc["status"], grpc["code"]) == ("UNIMPLEMENTED", 12)


def test_timeout_on_sleeping_server(explorer_bin, interop):
    result, grpc = send(explorer_bin, interop, "timeout_on_sleeping_server", "--max-time", "0.001")
    assert result.returncode == 64 + 4, result.stderr
    assert (grpc["status"], grpc["code"]) == ("DEADLINE_EXCEEDED", 4)


# Ended by Ctrl-C: by the signal itself, or exiting 128 + SIGINT as a shell would report it.
INTERRUPTED = (-signal.SIGINT, 128 + signal.SIGINT)


def start_send(explorer_bin, interop, name: str, *options: str) -> subprocess.Popen:
    """`explorer send NAME` printing each message as it comes (no --json), stdin a pipe."""
    folder, collection = interop
    environment = {"HOME": str(folder), "XDG_STATE_HOME": str(folder / "state"), "LANG": "C.UTF-8",
                   "PATH": "/usr/bin:/bin"}
    # Ctrl-C's default action, whatever this process has: a test run started in the background
    # by a shell has SIGINT ignored, and a child inherits that, so a SIGINT sent before the
    # explorer's own handler is in place would be lost rather than end it.
    return subprocess.Popen(
        [str(explorer_bin), "send", "--collection", str(collection), "--env", "local", name, "--no-history",
         *options],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=environment,
        cwd=str(folder), preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


def test_cancel_after_first_response(explorer_bin, interop):
    process = start_send(explorer_bin, interop, "cancel_after_first_response", "--stream")
    try:
        lines: queue.Queue = queue.Queue()
        reader = threading.Thread(target=lambda: [lines.put(line) for line in process.stdout], daemon=True)
        reader.start()
        first = json.loads(lines.get(timeout=DEFAULT_TIMEOUT * 2))
        assert body_sizes([first]) == [31415]
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=DEFAULT_TIMEOUT) in INTERRUPTED, process.stderr.read()
        reader.join(timeout=DEFAULT_TIMEOUT)
        assert lines.empty(), "the second message, 30 s later, never came"
    finally:
        process.kill()
        process.wait()


def test_cancel_after_begin(explorer_bin, interop):
    process = start_send(explorer_bin, interop, "cancel_after_begin", "--data", "@-")
    try:
        # The call has begun once the explorer waits for the messages stdin never sends.
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=DEFAULT_TIMEOUT) in INTERRUPTED, process.stderr.read()
        assert process.stdout.read() == ""
    finally:
        process.kill()
        process.wait()
    # The server goes on answering.
    result, grpc = send(explorer_bin, interop, "empty_unary")
    assert grpc["status"] == "OK", result.stderr
