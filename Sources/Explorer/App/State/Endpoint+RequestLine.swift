import Workspace

extension Endpoint {
    /// `METHOD path?query` with its templates kept: the text the inline editor starts from and
    /// the save confirmation shows.
    ///
    /// It lives beside the state rather than in the reducer or a view, so that both use it
    /// without a view calling into the reducer.
    package var requestLine: String {
        let query = query.map { $0.value.isEmpty ? $0.name : "\($0.name)=\($0.value)" }.joined(separator: "&")
        return "\(method.rawValue) \(path)" + (query.isEmpty ? "" : "?" + query)
    }

    /// What the endpoint list shows where an HTTP endpoint's method goes: the method, or
    /// `gRPC` for a gRPC call (its kind comes with its schema, when it is called).
    package var listLabel: String { isGRPC ? "gRPC" : method.rawValue }
}
