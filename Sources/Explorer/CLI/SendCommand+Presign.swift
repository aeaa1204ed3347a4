import ArgumentParser
import Foundation
import NetworkingCore
import Workspace

/// `send --presign SECONDS`: prints the endpoint's URL signed in its query (AWS SigV4's
/// presigned URL, or OAuth 1.0a's parameters in the query) instead of sending it.
struct PresignOption: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Print the URL signed in its query, valid for SECONDS (1 to 604800), instead of sending it "
                + "(aws_sigv4 and oauth1 auth).",
            valueName: "SECONDS"))
    var presign: Int?

    func validate() throws {
        if let presign, !(1...AWSSignatureV4.maximumExpiry).contains(presign) {
            throw ValidationError(
                "--presign takes seconds from 1 to \(AWSSignatureV4.maximumExpiry) (7 days), not \(presign).")
        }
    }

    /// Prints the presigned URL of a resolved request on stdout.
    ///
    /// - Throws: `ExitCode(2)` after a sentence when the endpoint's auth signs no URL.
    func printURL(of resolved: ResolvedRequest, expires: Int) throws {
        do {
            print(try resolved.presignedURL(expires: expires).absoluteString)
        } catch let failure as ResolvedRequest.PresignFailure {
            printError("Cannot presign: \(failure.description).")
            throw ExitCode(2)
        }
    }
}
