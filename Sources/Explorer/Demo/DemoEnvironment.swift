import Foundation

/// One environment the demo serves: its name, the port it listens on and whether it is
/// marked protected (production) in the demo collection.
package struct DemoEnvironment: Sendable, Hashable {
    /// The three environments of the demo, in the order they get ports (`port`, `port+1`, `port+2`).
    static let names = ["local", "staging", "production"]

    package let name: String
    let port: Int

    /// Production is protected: the explorer asks before sending to it.
    package var isProtected: Bool { name == "production" }

    /// The base URL of the environment, with the API's `/v1` base path.
    package var baseURL: URL { URL(string: "http://127.0.0.1:\(port)/v1")! }
}
