import Checks
import Foundation
import NetworkingCore
import Terminal

/// What comes back for an exchange: the head and body as they arrive, the outcome, its checks;
/// and what the user does with a body (copy it, save it).
extension AppReducer {
    // MARK: - An exchange under way

    /// Body bytes arrived for an exchange in flight (the head with the first of them).
    static func progress(_ id: Int, bytes: Int, head: ResponseHead?, _ state: inout AppState) {
        guard state.exchanges[id]?.isInFlight == true else { return }
        state.exchanges[id]?.phase = .inFlight(bytes: bytes)
        if let head { state.exchanges[id]?.head = head }
    }

    /// What has arrived of a body still streaming: shown as it grows.
    static func streamed(_ id: Int, _ snapshot: ResponseSnapshot, _ state: inout AppState) {
        guard state.exchanges[id]?.isInFlight == true else { return }
        let first = state.exchanges[id]?.partial == nil
        // The pane shows one line more above the text while the body streams.
        let height = max(1, AppLayout(size: state.size, state: state).responseTextHeight - 1)
        let before = ResponseContent.source(for: state).lineCount
        let following = state.shownExchange == id && state.body.text.topLine + height >= before
        state.exchanges[id]?.partial = snapshot
        guard state.shownExchange == id else { return }
        if first {
            resetBodyView(&state)
        } else if following, snapshot.document.kind == .events {
            // A live event view follows the tail until the user scrolls up.
            state.body.text.scrollToBottom(source: ResponseContent.source(for: state), height: height)
        }
    }

    /// The whole response of an exchange in flight arrived.
    static func received(_ id: Int, _ response: ResponseSnapshot, _ state: inout AppState) {
        guard state.exchanges[id]?.isInFlight == true else { return }
        let streamed = state.exchanges[id]?.partial != nil
        state.exchanges[id]?.phase = .received(response)
        state.exchanges[id]?.partial = nil
        // A body shown while it streamed keeps its scroll position; search and filters
        // start over on the whole body.
        if state.shownExchange == id, !streamed { resetBodyView(&state) }
    }

    /// An exchange in flight failed.
    static func failed(_ id: Int, _ failure: TransportFailure, _ state: inout AppState) {
        guard state.exchanges[id]?.isInFlight == true else { return }
        state.exchanges[id]?.phase = .failed(failure)
    }

    /// The request of an exchange could not be resolved: it is "not sent", and the footer says
    /// why.
    static func resolveFailed(_ id: Int, _ error: String, _ state: inout AppState) {
        guard state.exchanges[id]?.isInFlight == true else { return }
        state.exchanges[id]?.phase = .failed(TransportFailure(category: "not sent", message: error, hint: nil))
        state.message = error
        state.messageIsError = true
    }

    /// The endpoint's checks ran on the response: their report; a capture kept as secret is
    /// masked in what the exchange shows.
    static func checked(_ id: Int, _ report: CheckReport, _ state: inout AppState) {
        state.exchanges[id]?.checks = report
        // A token the response carried and a capture kept as secret is masked from now on.
        let captured = report.captured.filter(\.isSecret).map(\.value)
        if !captured.isEmpty, let masker = state.exchanges[id]?.masker {
            state.exchanges[id]?.masker = masker.adding(secretValues: captured)
        }
    }

    // MARK: - Copying and saving a body

    /// `y`: the shown body to the terminal's clipboard, as text, up to 512 KB.
    static func copyBody(_ state: inout AppState) -> [AppEffect] {
        guard let document = state.shownDocument, document.kind != .empty else {
            state.message = "No response body to copy."
            return []
        }
        guard document.kind != .binary else {
            state.message = "A binary body cannot go to the clipboard as text; s saves it to a file."
            return []
        }
        let limit = 512 * 1024
        guard document.byteCount <= limit else {
            state.message = "The body is too large for the terminal clipboard (over 512 KB); s saves it to a file."
            return []
        }
        let text = (0..<document.lineCount).map { document.plainLine($0, maxBytes: .max) }.joined(separator: "\n")
        let preview = text.prefix(60).replacingOccurrences(of: "\n", with: " ")
        state.message = "Copied \(text.utf8.count) bytes: \(preview)\(text.count > 60 ? "…" : "")"
        state.messageIsError = false
        return [.copyToClipboard(text)]
    }

    /// `s`: asks where to save the shown body, proposing a file of its own in the save folder.
    static func askSavePath(_ state: inout AppState) {
        guard let exchange = state.shown, let response = exchange.response else {
            state.message = "No response body to save."
            return
        }
        // A name of its own (endpoint and time), in a folder the user sees and can change;
        // the effect never replaces a file that is there.
        let slug = String((exchange.endpointID ?? "response").map { $0.isLetter || $0.isNumber ? $0 : "-" })
        // UTC, so the name does not depend on the machine's time zone.
        let stamp = state.now.formatted(
            .iso8601.year().month().day().dateSeparator(.omitted)
                .time(includingFractionalSeconds: false).timeSeparator(.omitted))
        let name = "explorer-\(slug)-\(stamp)Z.\(fileExtension(response.document))"
        let folder = state.saveFolder.hasSuffix("/") ? String(state.saveFolder.dropLast()) : state.saveFolder
        state.input = TextInput(purpose: .savePath(exchange: exchange.id), text: folder + "/" + name)
    }

    /// Saves the body of an exchange to the path typed.
    static func saveBody(of id: Int, to path: String, _ state: AppState) -> [AppEffect] {
        guard let response = state.exchanges[id]?.response, !path.isEmpty else { return [] }
        return [.saveBody(response.document.raw, path: path)]
    }

    /// The file name extension of a body's kind.
    private static func fileExtension(_ document: BodyDocument) -> String {
        switch document.kind {
        case .json: return "json"
        case .xml: return "xml"
        case .html: return "html"
        case .binary: return document.contentType.contains("png") ? "png" : "bin"
        default: return "txt"
        }
    }
}
