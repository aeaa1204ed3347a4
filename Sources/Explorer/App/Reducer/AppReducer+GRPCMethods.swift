import NetworkingCore
import Terminal
import Workspace

/// `Ctrl-N` on a gRPC environment: the palette offers the server's methods (its reflection,
/// else the collection's `protoset:`/`protos:`), and the one picked becomes a draft calling
/// it, its `message:` a skeleton of the input type, as OpenAPI imports fill bodies.
extension AppReducer {
    /// Opens the palette on the methods of a gRPC server, asking for them: `server` (a
    /// template, as an endpoint's `server:` has it), else `environment`'s base URL.
    static func offerGRPCMethods(in environment: Environment, server: String?, _ state: inout AppState)
        -> [AppEffect]
    {
        var reflection = Endpoint.serverReflection
        if let server {
            let settings = GRPCSettings(method: reflection.grpc?.method ?? "", server: server)
            reflection.grpc = settings
            reflection.path = settings.path
        }
        guard let plan = state.plan(for: reflection, in: environment) else {
            newHTTPEndpoint(&state)
            return []
        }
        let offer = PaletteOffer(
            title: "New gRPC call on \(environment.name)", entries: [httpEntry],
            waiting: "asking \(server ?? environment.baseURLTemplate) for its methods …", grpcServer: server)
        state.overlay = .palette(PaletteState(offer: offer))
        return [.listGRPCMethods(plan)]
    }

    /// The methods arrived: the palette lists them (when it still waits for them, from that
    /// server), or the message line says why there are none and the palette offers an HTTP
    /// endpoint only.
    static func grpcMethodsListed(environment: String, _ load: GRPCMethodsLoad, _ state: inout AppState) {
        guard case .palette(var palette) = state.overlay, var offer = palette.offer, offer.waiting != nil,
            offer.grpcServer == load.server, state.activeEnvironmentValue?.name == environment
        else { return }
        offer.waiting = nil
        if let problem = load.problem {
            state.message = "No gRPC methods to offer: \(problem)"
            state.messageIsError = true
        } else {
            offer.entries =
                load.methods.map { method in
                    PaletteEntry(target: .newGRPCCall(method), text: method.method, detail: method.kind.rawValue)
                } + offer.entries
            offer.title += " · \(load.methods.count) methods from \(load.origin)"
        }
        palette.offer = offer
        palette.list = ListState()
        state.overlay = .palette(palette)
    }

    /// A draft calling `offer`'s method in the selected folder, named after the method, its
    /// message the skeleton (a list of one for the methods that take a stream).
    static func newGRPCEndpoint(_ offer: GRPCMethodOffer, _ state: inout AppState) {
        let folderPath = selectedFolderPath(state)
        let methodName = offer.method.split(separator: "/").last.map(String.init) ?? offer.method
        let name = freeName(methodName, in: folderPath, state)
        let settings = GRPCSettings(
            method: offer.method, server: offer.server, messages: [offer.skeleton],
            writtenAsList: offer.kind.clientStreams)
        var endpoint = Endpoint(name: name, folderPath: folderPath, method: .post, path: settings.path)
        endpoint.grpc = settings
        state.drafts[endpoint.id] = endpoint
        state.endpointList.setFilter("")
        state.rebuildRows(selecting: endpoint.id)
        state.focus = .endpoints
        state.lastList = .endpoints
        state.message =
            "New endpoint \(endpoint.id): a \(offer.kind.rawValue) call of \(offer.method) with a skeleton of "
            + "\(offer.inputType); E edits it, Enter sends it, S saves it to the file."
        state.messageIsError = false
    }

    /// The row that makes an HTTP endpoint instead (an environment may hold both).
    private static let httpEntry = PaletteEntry(
        target: .newHTTPEndpoint, text: "HTTP request (type its path or URL)", detail: "")
}
