import NetworkingCore
import Terminal
import Workspace

extension RequestPane {
    /// A gRPC endpoint's preview: the service and method, the call's kind (known once it was
    /// called in this session: the schema says it), the server, the metadata (masked as headers
    /// are) and the request message(s) as JSON.
    static func grpcPreviewLines(_ state: AppState, endpoint: Endpoint, settings: GRPCSettings, compact: Bool)
        -> [[Span]]
    {
        let method = settings.method.hasPrefix("/") ? String(settings.method.dropFirst()) : settings.method
        let parts = method.split(separator: "/", maxSplits: 1).map(String.init)
        let kind = grpcKind(state, endpointID: endpoint.id) ?? "gRPC"
        var lines: [[Span]] = [
            [
                Span(kind + " ", Style(.methodPost, .bold)), Span(parts.first ?? method, role: .jsonKey),
                Span(" / ", role: .dim), Span(parts.count > 1 ? parts[1] : "", Style(.text, .bold)),
            ]
        ]
        guard let preview = state.preview, preview.key?.endpoint.id == endpoint.id else {
            lines.append([Span("server  ", role: .headerName), Span(settings.server ?? "(the environment's base_url)")])
            return lines + (compact ? [] : messageLines(settings, masker: SecretMasker()))
        }
        if let error = preview.error {
            lines.append([Span(error, role: .error)])
            return lines
        }
        // The resolved URL is the server and the call's path: the server is what comes before it.
        let url = preview.urlText
        let path = "/" + method
        let server = url.hasSuffix(path) ? String(url.dropLast(path.count)) : url
        lines.append([Span("server  ", role: .headerName), Span(server, role: .text)])
        if compact { return lines }
        lines.append(contentsOf: ResponseContent.headerLines(preview.headers))
        return lines + messageLines(settings, masker: preview.masker)
    }

    /// The request messages as written, pretty-printed, each under its number when there are several.
    private static func messageLines(_ settings: GRPCSettings, masker: SecretMasker) -> [[Span]] {
        var lines: [[Span]] = []
        for (index, message) in settings.messages.enumerated() {
            let title = settings.messages.count == 1 ? "message" : "message \(index + 1)"
            lines.append([Span(title, role: .headerName)])
            for line in masker.mask(message.serialized(pretty: true)).split(separator: "\n") {
                lines.append([Span(String(line), role: .jsonString)])
            }
        }
        return lines
    }

    /// The kind of the endpoint's last call in this session (`gRPC unary`), as its response says.
    static func grpcKind(_ state: AppState, endpointID: String) -> String? {
        state.exchanges.values
            .filter { $0.endpointID == endpointID && $0.response?.isGRPC == true }
            .max { $0.id < $1.id }?.response?.httpVersion
    }
}
