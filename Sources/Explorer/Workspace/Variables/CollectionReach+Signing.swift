import Foundation
import NetworkingCore

extension CollectionReach {
    /// What an `auth: aws_sigv4` reaches beyond the collection: the AWS CLI's shared files for
    /// a `profile:` (or when it names no keys), and the `AWS_*` variables when it names neither
    /// keys nor a profile. A collection found on its own may not read them until it is trusted.
    static func signingReferences(of collection: APICollection) -> Set<Reference> {
        var auths = [collection.auth] + collection.environments.map(\.auth)
        auths += collection.endpoints.map { collection.authentication(for: $0, in: nil) }
        var found = Set<Reference>()
        let files = AWSSharedFiles(environment: ProcessInfo.processInfo.environment)
        for case .awsSigV4(let settings)? in auths.map({ $0?.scheme }) {
            let hasKeys = settings.values["access_key_id"] != nil && settings.values["secret_access_key"] != nil
            if hasKeys { continue }
            found.insert(.file(files.credentialsFile.standardizedFileURL.path))
            found.insert(.file(files.configFile.standardizedFileURL.path))
            if settings.values["profile"] == nil {
                for name in ["AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_PROFILE"] {
                    found.insert(.environmentVariable(name))
                }
            }
        }
        return found
    }
}
