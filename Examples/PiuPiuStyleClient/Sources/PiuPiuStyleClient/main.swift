import Foundation
import Networking

// PiuPiu 1.3's README, as a command-line client: a server provider, a dispatcher, a future
// decoded into a model, and PiuPiu's Foundation JSON object. Run it with the base URL of a
// JSON API that has `/posts/1` (JSONPlaceholder's shape):
//
//     swift run PiuPiuStyleClient http://127.0.0.1:8080

struct Post: Decodable, Sendable {
    let id: Int
    let userId: Int
    let title: String
}

final class API: ServerProvider {
    let baseURL: URL?
    init(baseURL: URL?) { self.baseURL = baseURL }
}

let arguments = CommandLine.arguments
guard arguments.count == 2, let base = URL(string: arguments[1]) else {
    FileHandle.standardError.write(Data("usage: PiuPiuStyleClient BASE_URL\n".utf8))
    exit(2)
}
let api = API(baseURL: base)
let dispatcher = NetworkDispatcher(serverProvider: api, callbackQueue: .global())

do {
    // A future, awaited: decoded into a model, the request it sent kept on the response.
    let response = try await dispatcher.future(from: BasicRequest(method: .get, path: "/posts/1"))
        .ensureValidResponse()
        .value
    let post = try response.decode(Post.self)
    print("post \(post.id) by user \(post.userId): \(post.title)")
    print(response.request.curlDescription)

    // PiuPiu's decodeJSONObject(): Foundation's object, cast as PiuPiu code casts it.
    if let object = try response.decodeJSONObject() as? [String: Any] {
        print("members: \(object.keys.sorted().joined(separator: ", "))")
    }
    // The library's own value: members in the body's order, numbers as written.
    print(try response.decodeJSONValue().serialized())
} catch {
    FileHandle.standardError.write(Data("failed: \(error)\n".utf8))
    exit(1)
}
