"""The gRPC interop test server (`grpc.testing.TestService`) in Python's grpcio, for the end-to-end
tests of the explorer's gRPC client.

It implements what the interop spec asks of a server for these client cases
(https://github.com/grpc/grpc/blob/master/doc/interop-test-descriptions.md): empty_unary,
large_unary, client_streaming, server_streaming, ping_pong, empty_stream, custom_metadata,
status_code_and_message, special_status_message, unimplemented_method, unimplemented_service,
timeout_on_sleeping_server, cancel_after_begin and cancel_after_first_response.

The Python stubs are generated at start, with grpc_tools.protoc, from the protos in
Tests/Fixtures/proto/grpc-testing (the gRPC project's own) into a temporary folder that goes
when the server stops; nothing generated is committed.

    python3 server.py --port 0 [--reflection v1|v1alpha|both|none] [--tls CERT KEY]
                      [--protoset-out FILE]

prints `PORT N` on stdout once it listens, and serves until SIGTERM or SIGINT.
"""
from __future__ import annotations

import argparse
import importlib
import importlib.util
import shutil
import signal
import sys
import tempfile
import threading
from concurrent import futures
from pathlib import Path

import grpc

ROOT = Path(__file__).resolve().parents[3]
FIXTURES = ROOT / "Tests" / "Fixtures" / "proto"
TESTING_PROTOS = FIXTURES / "grpc-testing"
REFLECTION_PROTOS = FIXTURES / "grpc-reflection"
# test.proto imports its siblings by their path in the gRPC repository.
TESTING_PACKAGE = "src/proto/grpc/testing"
TESTING_FILES = ("empty.proto", "messages.proto", "test.proto")
REFLECTION_V1 = "grpc/reflection/v1/reflection.proto"

ECHO_INITIAL = "x-grpc-test-echo-initial"
ECHO_TRAILING = "x-grpc-test-echo-trailing-bin"


def well_known_types() -> str:
    """grpc_tools' copy of google/protobuf/*.proto."""
    from importlib import resources
    return str(resources.files("grpc_tools") / "_proto")


def protoc(arguments: list[str]) -> None:
    from grpc_tools import protoc as tool
    status = tool.main(["grpc_tools.protoc", f"-I{well_known_types()}", *arguments])
    if status != 0:
        raise SystemExit(f"grpc_tools.protoc failed ({status}) for: {' '.join(arguments)}")


def lay_out_testing_protos(folder: Path) -> Path:
    """Copies the fixture protos to `folder/src/proto/grpc/testing/`, where their imports look."""
    target = folder / TESTING_PACKAGE
    target.mkdir(parents=True)
    for name in TESTING_FILES:
        shutil.copyfile(TESTING_PROTOS / name, target / name)
    return target


def generate_stubs(folder: Path) -> dict[str, object]:
    """The interop and reflection v1 stubs, generated into `folder` and imported from it."""
    lay_out_testing_protos(folder)
    protoc([f"-I{folder}", f"--python_out={folder}", f"--grpc_python_out={folder}",
            *(f"{TESTING_PACKAGE}/{name}" for name in TESTING_FILES)])
    # Generated apart and loaded by its path: as `grpc.reflection.v1` it would be looked for
    # inside grpcio's own `grpc` package.
    reflection = folder / "reflection"
    reflection.mkdir()
    protoc([f"-I{REFLECTION_PROTOS}", f"--python_out={reflection}", REFLECTION_V1])
    sys.path.insert(0, str(folder))
    module = TESTING_PACKAGE.replace("/", ".")
    return {
        "empty": importlib.import_module(f"{module}.empty_pb2"),
        "messages": importlib.import_module(f"{module}.messages_pb2"),
        "test": importlib.import_module(f"{module}.test_pb2"),
        "test_grpc": importlib.import_module(f"{module}.test_pb2_grpc"),
        "reflection_v1": load_module("interop_reflection_v1_pb2",
                                     reflection / REFLECTION_V1.replace(".proto", "_pb2.py")),
    }


def load_module(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def write_protoset(path: Path, folder: Path) -> None:
    """The interop protos' FileDescriptorSet, with their imports (for `protoset:` tests)."""
    protoc([f"-I{folder}", "--include_imports", f"--descriptor_set_out={path}",
            f"{TESTING_PACKAGE}/test.proto"])


def make_servicer(stubs: dict[str, object]):
    empty = stubs["empty"]
    messages = stubs["messages"]

    def payload(size: int):
        return messages.Payload(type=messages.COMPRESSABLE, body=b"\0" * size)

    def echo_metadata(context) -> None:
        """custom_metadata: the initial value back in the headers, the trailing one in the trailers."""
        received = dict(context.invocation_metadata())
        if ECHO_INITIAL in received:
            context.send_initial_metadata(((ECHO_INITIAL, received[ECHO_INITIAL]),))
        if ECHO_TRAILING in received:
            context.set_trailing_metadata(((ECHO_TRAILING, received[ECHO_TRAILING]),))

    def apply_status(request, context) -> None:
        """status_code_and_message, special_status_message: the status the request asks for."""
        if request.HasField("response_status") and request.response_status.code != 0:
            code = next(c for c in grpc.StatusCode if c.value[0] == request.response_status.code)
            context.abort(code, request.response_status.message)

    def stream_responses(request, context):
        for parameters in request.response_parameters:
            if parameters.interval_us > 0:
                # The spec's pacing of a server stream, asked for by the client.
                context_wait(context, parameters.interval_us / 1_000_000)
            yield messages.StreamingOutputCallResponse(payload=payload(parameters.size))

    def context_wait(context, seconds: float) -> None:
        """Waits `seconds`, or less when the call ends first."""
        done = threading.Event()
        context.add_callback(done.set)
        done.wait(seconds)

    class TestService(stubs["test_grpc"].TestServiceServicer):
        def EmptyCall(self, request, context):
            return empty.Empty()

        def UnaryCall(self, request, context):
            echo_metadata(context)
            apply_status(request, context)
            return messages.SimpleResponse(payload=payload(request.response_size))

        def CacheableUnaryCall(self, request, context):
            context.send_initial_metadata((("cache-control", "max-age=60, public"),))
            return messages.SimpleResponse(payload=payload(request.response_size))

        def StreamingOutputCall(self, request, context):
            apply_status(request, context)
            yield from stream_responses(request, context)

        def StreamingInputCall(self, request_iterator, context):
            size = sum(len(request.payload.body) for request in request_iterator)
            return messages.StreamingInputCallResponse(aggregated_payload_size=size)

        def FullDuplexCall(self, request_iterator, context):
            echo_metadata(context)
            for request in request_iterator:
                apply_status(request, context)
                yield from stream_responses(request, context)

        def HalfDuplexCall(self, request_iterator, context):
            requests = list(request_iterator)
            for request in requests:
                apply_status(request, context)
                yield from stream_responses(request, context)

        def UnimplementedCall(self, request, context):
            # unimplemented_method: the spec's answer to a method the server does not implement.
            context.abort(grpc.StatusCode.UNIMPLEMENTED, "UnimplementedCall is not implemented")

    return TestService()


def add_reflection(server, stubs: dict[str, object], versions: list[str], service_names: list[str]) -> None:
    """Server reflection over the default descriptor pool (which the generated stubs fill).

    grpcio-reflection serves `grpc.reflection.v1alpha` only; v1 is the same servicer under
    `grpc.reflection.v1`, with the v1 stubs generated from the fixture's reflection.proto. The
    two packages' messages are the same on the wire, so each request and answer crosses over
    by its bytes.
    """
    from grpc_reflection.v1alpha import reflection, reflection_pb2 as alpha

    names = list(service_names)
    if "v1alpha" in versions:
        names.append("grpc.reflection.v1alpha.ServerReflection")
    if "v1" in versions:
        names.append("grpc.reflection.v1.ServerReflection")
    servicer = reflection.ReflectionServicer(names)
    if "v1alpha" in versions:
        handlers = {"ServerReflectionInfo": grpc.stream_stream_rpc_method_handler(
            servicer.ServerReflectionInfo,
            request_deserializer=alpha.ServerReflectionRequest.FromString,
            response_serializer=alpha.ServerReflectionResponse.SerializeToString)}
        server.add_generic_rpc_handlers(
            (grpc.method_handlers_generic_handler("grpc.reflection.v1alpha.ServerReflection", handlers),))
    if "v1" in versions:
        v1 = stubs["reflection_v1"]

        def info(request_iterator, context):
            requests = (alpha.ServerReflectionRequest.FromString(request.SerializeToString())
                        for request in request_iterator)
            for response in servicer.ServerReflectionInfo(requests, context):
                yield v1.ServerReflectionResponse.FromString(response.SerializeToString())

        handlers = {"ServerReflectionInfo": grpc.stream_stream_rpc_method_handler(
            info,
            request_deserializer=v1.ServerReflectionRequest.FromString,
            response_serializer=v1.ServerReflectionResponse.SerializeToString)}
        server.add_generic_rpc_handlers(
            (grpc.method_handlers_generic_handler("grpc.reflection.v1.ServerReflection", handlers),))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="gRPC interop test server (grpc.testing.TestService)")
    parser.add_argument("--port", type=int, default=0, help="0: a free port (printed as `PORT N`)")
    parser.add_argument("--reflection", choices=("v1", "v1alpha", "both", "none"), default="both")
    parser.add_argument("--tls", nargs=2, metavar=("CERT", "KEY"), help="serve TLS with this PEM chain and key")
    parser.add_argument("--protoset-out", type=Path, help="write the interop protos' descriptor set here")
    arguments = parser.parse_args(argv)

    folder = Path(tempfile.mkdtemp(prefix="grpc-interop-"))
    try:
        stubs = generate_stubs(folder)
        if arguments.protoset_out:
            write_protoset(arguments.protoset_out, folder)

        server = grpc.server(futures.ThreadPoolExecutor(max_workers=16))
        stubs["test_grpc"].add_TestServiceServicer_to_server(make_servicer(stubs), server)
        versions = {"both": ["v1", "v1alpha"], "none": []}.get(arguments.reflection, [arguments.reflection])
        if versions:
            add_reflection(server, stubs, versions, ["grpc.testing.TestService"])

        address = f"127.0.0.1:{arguments.port}"
        if arguments.tls:
            chain, key = (Path(path).read_bytes() for path in arguments.tls)
            port = server.add_secure_port(address, grpc.ssl_server_credentials(((key, chain),)))
        else:
            port = server.add_insecure_port(address)
        server.start()

        stopped = threading.Event()
        for signum in (signal.SIGTERM, signal.SIGINT):
            signal.signal(signum, lambda *_: stopped.set())
        print(f"PORT {port}", flush=True)
        stopped.wait()
        server.stop(grace=0).wait()
        return 0
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
