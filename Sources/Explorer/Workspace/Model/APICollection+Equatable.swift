/// Two collections are equal when they say the same: name, variables, environments, the
/// endpoint tree, description, `auth:`, `allow_insecure_redirects:`, `openapi:`, `validate:`,
/// `compare:`, `protoset:` and `protos:`. Where and how one was read (`sourceURL`, `sourceHasComments`, the loader's
/// `warnings`) is not part of equality, as an endpoint's `location` is not.
extension APICollection: Equatable {
    package static func == (lhs: APICollection, rhs: APICollection) -> Bool {
        guard lhs.name == rhs.name, lhs.variables == rhs.variables, lhs.environments == rhs.environments,
            lhs.items == rhs.items, lhs.description == rhs.description, lhs.auth == rhs.auth,
            lhs.allowsInsecureRedirects == rhs.allowsInsecureRedirects, lhs.openAPI == rhs.openAPI,
            lhs.validatesResponses == rhs.validatesResponses, lhs.compareRules == rhs.compareRules,
            lhs.grpcSchema == rhs.grpcSchema
        else { return false }
        return true
    }
}
