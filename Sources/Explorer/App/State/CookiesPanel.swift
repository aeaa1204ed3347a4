import Foundation
import NetworkingCore
import Terminal
import Workspace

/// The Cookies panel (`C`): the active environment's cookie jar, values masked; `x` deletes
/// the selected cookie, `X` all of them.
typealias CookiesPanel = KeptItemsPanel<Cookie>

extension AppState {
    /// The key the collection's cookie jars are kept under (as `ResolvedRequest.collectionKey`).
    var cookieCollectionKey: String {
        collection?.storeKey ?? collectionPath
    }
}
