"""The gRPC interop server of the end-to-end tests (Tests/e2e/grpc_interop/server.py), checked
with Python's own grpc client: each interop case the explorer is tested with, reflection in each
mode, TLS and the descriptor set it writes. A failure of the explorer's interop tests is then the
explorer's, not the server's.

The cases are the interop spec's
(https://github.com/grpc/grpc/blob/master/doc/interop-test-descriptions.md), with its sizes.
"""
from __future__ import annotations

import queue

import pytest
from grpc_interop.harness import interop_server, require_grpc

ECHO_INITIAL = ("x-grpc-test-echo-initial", "test_initial_metadata_value")
ECHO_TRAILING = ("x-grpc-test-echo-trailing-bin", b"\x0a\x0b\x0a\x0b\x0a\x0b")
SPECIAL_MESSAGE = "\t\ntest with whitespace\r\nand Unicode BMP \u263a and non-BMP \U0001f608\t\n"
TIMEOUT = 15


@pytest.fixture(scope="session")
def stubs(tmp_path_factory):
    """The interop stubs, generated as the server generates its own (once for the session)."""
    require_grpc()
    from grpc_interop import server
    return server.generate_stubs(tmp_path_factory.mktemp("interop-stubs"))


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with interop_server(tmp_path_factory.mktemp("interop"), reflection="both", protoset=True) as running:
        yield running


@pytest.fixture
def channel(server):
    import grpc
    with grpc.insecure_channel(server.target) as channel:
        yield channel


@pytest.fixture
def test_service(stubs, channel):
    return stubs["test_grpc"].TestServiceStub(channel)


def payload(stubs, size: int):
    messages = stubs["messages"]
    return messages.Payload(type=messages.COMPRESSABLE, body=b"\0" * size)


def test_empty_unary(stubs, test_service):
    response = test_service.EmptyCall(stubs["empty"].Empty(), timeout=TIMEOUT)
    assert response == stubs["empty"].Empty()


def test_large_unary(stubs, test_service):
    messages = stubs["messages"]
    request = messages.SimpleRequest(response_type=messages.COMPRESSABLE, response_size=314159,
                                     payload=payload(stubs, 271828))
    response = test_service.UnaryCall(request, timeout=TIMEOUT)
    assert response.payload.type == messages.COMPRESSABLE
    assert response.payload.body == b"\0" * 314159


def test_client_streaming(stubs, test_service):
    messages = stubs["messages"]
    requests = [messages.StreamingInputCallRequest(payload=payload(stubs, size)) for size in (27182, 8, 1828, 45904)]
    response = test_service.StreamingInputCall(iter(requests), timeout=TIMEOUT)
    assert response.aggregated_payload_size == 74922


def test_server_streaming(stubs, test_service):
    messages = stubs["messages"]
    sizes = [31415, 9, 2653, 58979]
    request = messages.StreamingOutputCallRequest(
        response_type=messages.COMPRESSABLE,
        response_parameters=[messages.ResponseParameters(size=size) for size in sizes])
    responses = list(test_service.StreamingOutputCall(request, timeout=TIMEOUT))
    assert [len(response.payload.body) for response in responses] == sizes
    assert all(response.payload.body.count(0) == len(response.payload.body) for response in responses)


def test_server_streaming_paces_its_messages_by_interval_us(stubs, test_service):
    import time
    messages = stubs["messages"]
    request = messages.StreamingOutputCallRequest(
        response_parameters=[messages.ResponseParameters(size=1, interval_us=100_000) for _ in range(3)])
    started = time.monotonic()
    arrivals = [time.monotonic() - started for _ in test_service.StreamingOutputCall(request, timeout=TIMEOUT)]
    assert len(arrivals) == 3
    assert arrivals[2] >= 0.3, arrivals


class Requests:
    """A request stream the test writes to while it reads the answers (ping-pong)."""

    def __init__(self):
        self.queue: queue.Queue = queue.Queue()

    def send(self, request) -> None:
        self.queue.put(request)

    def close(self) -> None:
        self.queue.put(None)

    def __iter__(self):
        return iter(self.queue.get, None)


def ping_pong_request(stubs, response_size: int, payload_size: int):
    messages = stubs["messages"]
    return messages.StreamingOutputCallRequest(
        response_type=messages.COMPRESSABLE,
        response_parameters=[messages.ResponseParameters(size=response_size)],
        payload=payload(stubs, payload_size))


def test_ping_pong(stubs, test_service):
    requests = Requests()
    call = test_service.FullDuplexCall(iter(requests), timeout=TIMEOUT)
    for response_size, payload_size in zip((31415, 9, 2653, 58979), (27182, 8, 1828, 45904)):
        requests.send(ping_pong_request(stubs, response_size, payload_size))
        assert len(next(call).payload.body) == response_size
    requests.close()
    assert list(call) == []


def test_empty_stream(test_service):
    import grpc
    call = test_service.FullDuplexCall(iter(()), timeout=TIMEOUT)
    assert list(call) == []
    assert call.code() == grpc.StatusCode.OK


def test_custom_metadata_unary(stubs, test_service):
    messages = stubs["messages"]
    request = messages.SimpleRequest(response_size=314159, payload=payload(stubs, 271828))
    response, call = test_service.UnaryCall.with_call(request, metadata=(ECHO_INITIAL, ECHO_TRAILING), timeout=TIMEOUT)
    assert len(response.payload.body) == 314159
    assert ECHO_INITIAL in call.initial_metadata()
    assert ECHO_TRAILING in call.trailing_metadata()


def test_custom_metadata_full_duplex(stubs, test_service):
    call = test_service.FullDuplexCall(iter([ping_pong_request(stubs, 314159, 271828)]),
                                       metadata=(ECHO_INITIAL, ECHO_TRAILING), timeout=TIMEOUT)
    assert [len(response.payload.body) for response in call] == [314159]
    assert ECHO_INITIAL in call.initial_metadata()
    assert ECHO_TRAILING in call.trailing_metadata()


@pytest.mark.parametrize("message", ["test status message", SPECIAL_MESSAGE],
                         ids=["status_code_and_message", "special_status_message"])
def test_status_code_and_message(stubs, test_service, message):
    import grpc
    messages = stubs["messages"]
    status = messages.EchoStatus(code=2, message=message)
    with pytest.raises(grpc.RpcError) as unary:
        test_service.UnaryCall(messages.SimpleRequest(response_status=status), timeout=TIMEOUT)
    assert (unary.value.code(), unary.value.details()) == (grpc.StatusCode.UNKNOWN, message)

    duplex = test_service.FullDuplexCall(iter([messages.StreamingOutputCallRequest(response_status=status)]),
                                         timeout=TIMEOUT)
    with pytest.raises(grpc.RpcError):
        list(duplex)
    assert (duplex.code(), duplex.details()) == (grpc.StatusCode.UNKNOWN, message)


def test_unimplemented_method(stubs, test_service):
    import grpc
    with pytest.raises(grpc.RpcError) as error:
        test_service.UnimplementedCall(stubs["empty"].Empty(), timeout=TIMEOUT)
    assert error.value.code() == grpc.StatusCode.UNIMPLEMENTED


def test_unimplemented_service(stubs, channel):
    import grpc
    stub = stubs["test_grpc"].UnimplementedServiceStub(channel)
    with pytest.raises(grpc.RpcError) as error:
        stub.UnimplementedCall(stubs["empty"].Empty(), timeout=TIMEOUT)
    assert error.value.code() == grpc.StatusCode.UNIMPLEMENTED


def test_timeout_on_sleeping_server(stubs, test_service):
    import grpc
    # The spec's request, with no response asked for, on a stream the client keeps open.
    requests = Requests()
    requests.send(stubs["messages"].StreamingOutputCallRequest(payload=payload(stubs, 27182)))
    call = test_service.FullDuplexCall(iter(requests), timeout=0.001)
    try:
        with pytest.raises(grpc.RpcError):
            list(call)
        assert call.code() == grpc.StatusCode.DEADLINE_EXCEEDED
    finally:
        requests.close()


def test_cancel_after_begin(test_service):
    import grpc
    requests = Requests()
    future = test_service.StreamingInputCall.future(iter(requests), timeout=TIMEOUT)
    assert future.cancel()
    assert future.cancelled()
    with pytest.raises(grpc.FutureCancelledError):
        future.result()


def test_cancel_after_first_response(stubs, test_service):
    import grpc
    requests = Requests()
    call = test_service.FullDuplexCall(iter(requests), timeout=TIMEOUT)
    requests.send(ping_pong_request(stubs, 31415, 27182))
    assert len(next(call).payload.body) == 31415
    call.cancel()
    assert call.code() == grpc.StatusCode.CANCELLED


# MARK: reflection


def list_services(stubs, channel, version: str) -> list[str]:
    """The services the server lists through reflection `version` (v1 or v1alpha)."""
    if version == "v1alpha":
        from grpc_reflection.v1alpha import reflection_pb2 as reflection
        from grpc_reflection.v1alpha import reflection_pb2_grpc
        stub = reflection_pb2_grpc.ServerReflectionStub(channel)
        info = stub.ServerReflectionInfo
    else:
        reflection = stubs["reflection_v1"]
        info = channel.stream_stream("/grpc.reflection.v1.ServerReflection/ServerReflectionInfo",
                                     request_serializer=reflection.ServerReflectionRequest.SerializeToString,
                                     response_deserializer=reflection.ServerReflectionResponse.FromString)
    requests = [reflection.ServerReflectionRequest(list_services=""),
                reflection.ServerReflectionRequest(file_containing_symbol="grpc.testing.TestService")]
    listed, found = list(info(iter(requests), timeout=TIMEOUT))
    files = [file for file in found.file_descriptor_response.file_descriptor_proto]
    assert files, "the file of grpc.testing.TestService"
    return sorted(service.name for service in listed.list_services_response.service)


@pytest.mark.parametrize("mode,served", [
    ("v1", ["v1"]), ("v1alpha", ["v1alpha"]), ("both", ["v1", "v1alpha"]), ("none", []),
])
def test_reflection_serves_the_versions_asked_for(stubs, tmp_path, mode, served):
    import grpc
    with interop_server(tmp_path, reflection=mode) as running, grpc.insecure_channel(running.target) as channel:
        for version in ("v1", "v1alpha"):
            if version in served:
                names = [f"grpc.reflection.{other}.ServerReflection" for other in served]
                assert list_services(stubs, channel, version) == sorted(["grpc.testing.TestService", *names])
            else:
                with pytest.raises(grpc.RpcError) as error:
                    list_services(stubs, channel, version)
                assert error.value.code() == grpc.StatusCode.UNIMPLEMENTED


def test_reflection_v1_gives_the_file_of_a_symbol_with_its_dependencies(stubs, channel):
    from google.protobuf import descriptor_pb2
    reflection = stubs["reflection_v1"]
    info = channel.stream_stream("/grpc.reflection.v1.ServerReflection/ServerReflectionInfo",
                                 request_serializer=reflection.ServerReflectionRequest.SerializeToString,
                                 response_deserializer=reflection.ServerReflectionResponse.FromString)
    request = reflection.ServerReflectionRequest(file_containing_symbol="grpc.testing.StreamingOutputCallRequest")
    (response,) = list(info(iter([request]), timeout=TIMEOUT))
    names = {descriptor_pb2.FileDescriptorProto.FromString(raw).name
             for raw in response.file_descriptor_response.file_descriptor_proto}
    assert "src/proto/grpc/testing/messages.proto" in names


# MARK: TLS and the descriptor set


def test_tls_is_served_with_the_certificate_its_ca_signed(stubs, tmp_path):
    import grpc
    with interop_server(tmp_path, reflection="none", tls=True) as running:
        credentials = grpc.ssl_channel_credentials(root_certificates=running.ca_cert.read_bytes())
        with grpc.secure_channel(running.target, credentials) as channel:
            stub = stubs["test_grpc"].TestServiceStub(channel)
            assert stub.EmptyCall(stubs["empty"].Empty(), timeout=TIMEOUT) == stubs["empty"].Empty()
        with grpc.insecure_channel(running.target) as plaintext:
            stub = stubs["test_grpc"].TestServiceStub(plaintext)
            with pytest.raises(grpc.RpcError) as error:
                stub.EmptyCall(stubs["empty"].Empty(), timeout=TIMEOUT)
            assert error.value.code() == grpc.StatusCode.UNAVAILABLE


def test_protoset_out_holds_the_interop_files_with_their_imports(server):
    from google.protobuf import descriptor_pb2
    files = descriptor_pb2.FileDescriptorSet.FromString(server.protoset.read_bytes()).file
    assert [file.name for file in files] == [
        "src/proto/grpc/testing/empty.proto", "src/proto/grpc/testing/messages.proto",
        "src/proto/grpc/testing/test.proto",
    ]
    (test,) = [file for file in files if file.name.endswith("test.proto")]
    assert [service.name for service in test.service] == ["TestService", "UnimplementedService", "ReconnectService"]
