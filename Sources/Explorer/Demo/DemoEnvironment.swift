import Foundation

/// One environment the demo serves: its name, the ports its HTTP API and its gRPC service
/// listen on and whether it is marked protected (production) in the demo collection.
package struct DemoEnvironment: Sendable, Hashable {
    /// The three environments of the demo, in the order they get ports (`port`, `port+1`, `port+2`).
    static let names = ["local", "staging", "production"]

    package let name: String
    let port: Int
    /// The port of the environment's gRPC server (`explorer.demo.v1.Directory` and reflection).
    package let grpcPort: Int

    /// An environment on the ports it got.
    ///
    /// - Parameters:
    ///   - name: `local`, `staging` or `production`.
    ///   - port: the HTTP API's port.
    ///   - grpcPort: the gRPC server's port; by default three above `port`, where a fixed
    ///     `explorer demo --port` puts it (PORT+3 for local, PORT+4 for staging, PORT+5 for production).
    init(name: String, port: Int, grpcPort: Int? = nil) {
        self.name = name
        self.port = port
        self.grpcPort = grpcPort ?? port + 3
    }

    /// Production is protected: the explorer asks before sending to it.
    package var isProtected: Bool { name == "production" }

    /// The base URL of the environment, with the API's `/v1` base path.
    package var baseURL: URL { URL(string: "http://127.0.0.1:\(port)/v1")! }

    /// The address of the environment's gRPC server, plaintext (`grpc://127.0.0.1:PORT`).
    package var grpcURL: URL { URL(string: "grpc://127.0.0.1:\(grpcPort)")! }
}
