import Foundation
import GRPCSupport
import NetworkingCore
import Workspace

extension ExchangeSending {
    /// Finds the methods of the gRPC server `plan` resolves to (`Endpoint.serverReflection` in
    /// an environment), through the session's schema cache: the server's reflection, else the
    /// collection's `protoset:` or `protos:`. The answer is `grpcMethodsListed`, with the
    /// sentence that says why when there is no schema; secrets in it are masked.
    func listGRPCMethods(_ plan: RequestPlan, send: @escaping @Sendable (AppAction) -> Void) {
        let environment = plan.environment.name
        let server = plan.endpoint.grpc?.server
        let resolved: ResolvedRequest
        let callPlan: GRPCCallPlan
        let collectionFile = collectionPath.map { URL(fileURLWithPath: $0) }
        do {
            resolved = try plan.resolve()
            callPlan = try GRPCCallPlan(resolved, collectionFile: collectionFile)
        } catch {
            let load = GRPCMethodsLoad(problem: sentence(describing: error), server: server)
            send(.grpcMethodsListed(environment: environment, load))
            return
        }
        let folder =
            collectionFile?.deletingLastPathComponent()
            ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        let files = plan.collection.grpcSchema
        let schemas = grpcSchemas
        Task {
            let (dispatcher, provider) = callPlan.dispatcher()
            let serverText = provider.baseURL?.absoluteString ?? callPlan.server.absoluteString
            let load: GRPCMethodsLoad
            do {
                let schema = try await schemas.schema(
                    files: files, folder: folder, dispatcher: dispatcher, server: serverText)
                load = GRPCMethodsLoad(
                    methods: GRPCMethodOffer.offers(schema.schema, server: server), origin: schema.origin.description,
                    server: server)
            } catch {
                load = GRPCMethodsLoad(problem: resolved.masker.mask(Self.grpcSentence(error)), server: server)
            }
            withExtendedLifetime(provider) {}
            await dispatcher.shutdown()
            send(.grpcMethodsListed(environment: environment, load))
        }
    }
}
