import Foundation
import NetworkingCore
import Terminal
import Workspace

/// One OAuth2 token of an environment, as the Tokens panel lists it.
package struct ListedToken: Sendable, Hashable {
    /// The key it is cached under (`OAuth2Configuration.cacheKey(sendingTo:)`).
    package var key: String
    /// The token.
    package var token: OAuth2Token
}

/// The Tokens panel (`T`): the active environment's OAuth2 tokens, masked, with their expiry;
/// `x` drops the selected one (the next request obtains a new one), `X` all of them.
typealias TokensPanel = KeptItemsPanel<ListedToken>
