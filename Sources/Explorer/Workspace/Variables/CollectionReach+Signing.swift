import Foundation
import NetworkingCore

extension CollectionReach {
    /// What an `auth: aws_sigv4` reaches beyond the collection: the AWS CLI's shared files for
    /// a `profile:` (or when it names no keys), and the `AWS_*` variables when it names neither
    /// keys nor a profile. A collection found on its own may not read them until it is trusted.
    static func signingReferences(of collection: APICollection) -> Set<Reference> {
        var signings: [AWSSigV4Settings] = []
        func note(_ auth: Authentication?) {
            if case .awsSigV4(let settings)? = auth?.scheme { signings.append(settings) }
        }
        note(collection.auth)
        for environment in collection.environments { note(environment.auth) }
        // Each endpoint's auth as `authentication(for:in: nil)` finds it (its own, else its
        // nearest folder's, else the collection's), in one walk rather than a search of the
        // folders by name for each endpoint.
        func walk(_ items: [CollectionItem], inherited: Authentication?) {
            for item in items {
                switch item {
                case .endpoint(let endpoint): note(endpoint.auth ?? inherited)
                case .folder(let folder): walk(folder.items, inherited: folder.auth ?? inherited)
                }
            }
        }
        walk(collection.items, inherited: collection.auth)
        var found = Set<Reference>()
        guard !signings.isEmpty else { return found }
        let files = AWSSharedFiles(environment: ProcessInfo.processInfo.environment)
        for settings in signings {
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
