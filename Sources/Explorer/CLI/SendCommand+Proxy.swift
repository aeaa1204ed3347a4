import ArgumentParser
import Foundation
import NetworkingCore
import Workspace

extension ExchangeSender {
    /// Gives the sender the environment's `proxy:` (its templates expanded with the
    /// command-line overrides; without one, the process's proxy variables apply), its
    /// `proxy_tunnel:`, and its `resolve:` under the `--resolve` flags.
    ///
    /// - Throws: `ExitCode(2)` after one sentence on stderr (at the setting's
    ///   `file:line:column`) when the setting does not expand to a usable proxy.
    mutating func useProxy(of environment: Environment, overrides: [String: String]) throws {
        do {
            proxy = try environment.proxyChoice(overrides: overrides)
            proxyTunnel = environment.proxyTunnel
            resolve = environment.resolvedAddresses.merging(resolveFlags) { _, flag in flag }
        } catch {
            printError(String(describing: error))
            throw ExitCode(2)
        }
    }
}
