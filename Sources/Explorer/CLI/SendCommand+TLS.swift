import ArgumentParser
import Foundation
import NetworkingCore
import Workspace

extension ExchangeSender {
    /// Gives the sender the environment's `tls:` settings (files read now).
    ///
    /// - Throws: `ExitCode(2)` after one sentence on stderr when a file does not read.
    mutating func useTLS(of environment: Environment, collectionFile: URL?) throws {
        guard let settings = environment.tlsSettings(collectionFile: collectionFile) else { return }
        do {
            _ = try settings.tlsConfiguration()
        } catch {
            printError("The environment \"\(environment.name)\" cannot be used: \(sentence(describing: error))")
            throw ExitCode(2)
        }
        tls = settings
    }
}
