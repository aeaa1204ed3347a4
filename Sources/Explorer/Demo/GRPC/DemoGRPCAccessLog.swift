import GRPCCore
import NetworkingGRPC

/// One line per gRPC call of an environment, when it ends, as the demo logs its HTTP requests:
/// `local      gRPC /explorer.demo.v1.Directory/GetUser → OK`.
struct DemoGRPCAccessLog: ServerInterceptor {
    let environment: String
    let log: @Sendable (String) -> Void

    func intercept<Input: Sendable, Output: Sendable>(
        request: StreamingServerRequest<Input>,
        context: ServerContext,
        next: @Sendable (StreamingServerRequest<Input>, ServerContext) async throws -> StreamingServerResponse<Output>
    ) async throws -> StreamingServerResponse<Output> {
        let path = "/\(context.descriptor.fullyQualifiedMethod)"
        let response: StreamingServerResponse<Output>
        do {
            response = try await next(request, context)
        } catch {
            ended(path, with: error)
            throw error
        }
        switch response.accepted {
        case .success(var contents):
            let producer = contents.producer
            contents.producer = { writer in
                do {
                    let trailers = try await producer(writer)
                    ended(path, with: nil)
                    return trailers
                } catch {
                    ended(path, with: error)
                    throw error
                }
            }
            return StreamingServerResponse(accepted: .success(contents))
        case .failure(let error):
            ended(path, with: error)
            return response
        }
    }

    private func ended(_ path: String, with error: (any Error)?) {
        let code = error.map { ($0 as? RPCError)?.code.rawValue ?? RPCError.Code.unknown.rawValue } ?? 0
        log(
            "\(environment.padding(toLength: 10, withPad: " ", startingAt: 0)) gRPC \(path) → \(GRPCStatus.name(of: code))"
        )
    }
}
