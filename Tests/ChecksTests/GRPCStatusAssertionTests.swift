import Foundation
import NetworkingCore
import Testing

@testable import Checks
@testable import Workspace

/// `grpc_status`: a gRPC call's status by name; an HTTP response has none.
@Suite struct GRPCStatusAssertionTests {
    static func response(grpcStatus: String?) -> CheckedResponse {
        var response = CheckedResponse(
            status: 200, headers: HTTPHeaders([("content-type", "application/grpc")]), body: Data("{}".utf8),
            durationMilliseconds: 3)
        response.grpcStatus = grpcStatus
        return response
    }

    @Test func theStatusNameIsCompared() throws {
        let notFound = Self.response(grpcStatus: "NOT_FOUND")
        #expect(try Assertion(parsing: "grpc_status == NOT_FOUND").check(notFound).passed)
        #expect(try Assertion(parsing: "grpc_status != OK").check(notFound).passed)
        let failed = try Assertion(parsing: "grpc_status == OK").check(notFound)
        #expect(!failed.passed)
        #expect(failed.actual == "\"NOT_FOUND\"" || failed.actual == "NOT_FOUND")
    }

    @Test func anHTTPResponseHasNoGRPCStatusAndSaysSo() throws {
        let result = try Assertion(parsing: "grpc_status == OK").check(Self.response(grpcStatus: nil))
        #expect(!result.passed)
        #expect(result.reason?.contains("gRPC") == true)
    }

    @Test func theQueryIsWrittenBackAsRead() throws {
        #expect(try Assertion(parsing: "grpc_status == OK").query.text == "grpc_status")
    }
}
