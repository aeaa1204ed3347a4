import Foundation

/// The collection file the demo writes and opens: every demo endpoint, in folders, with the
/// three environments pointing at the ports the demo got.
package enum DemoCollection {
    /// The collection as YAML, in the format of any user's collection file.
    static func yaml(for environments: [DemoEnvironment]) -> String {
        var text = """
            # The explorer demo collection, written by `explorer demo` for the ports it is serving on.
            # It is an ordinary collection file: copy it, edit it, keep it in git.
            name: Explorer demo API
            variables:
              per_page: "5"
              user_id: "1"
              post_id: "1"
              user: ada
              password: lovelace
              client_secret: demo-client-secret
            environments:

            """
        for environment in environments {
            text += "  - name: \(environment.name)\n"
            text += "    base_url: \(environment.baseURL.absoluteString)\n"
            // The demo serves on this machine: a proxy of HTTP_PROXY/HTTPS_PROXY could not reach it.
            text += "    proxy: none\n"
            let oauth = environment.baseURL.appendingPathComponent("oauth").absoluteString
            // The environment's gRPC server (explorer.demo.v1.Directory, with reflection).
            let grpc = environment.grpcURL.absoluteString
            switch environment.name {
            case "local":
                text +=
                    "    variables: { token: \(DemoAPI.bearerToken), user_id: \"1\", oauth: \(oauth), grpc_url: \(grpc) }\n"
            case "staging":
                text +=
                    "    variables: { token: \(DemoAPI.bearerToken), user_id: \"2\", oauth: \(oauth), grpc_url: \(grpc) }\n"
            default:
                text +=
                    "    variables: { token: \(DemoAPI.bearerToken), user_id: \"1\", oauth: \(oauth), grpc_url: \(grpc) }\n"
                text += "    protected: true\n"
                text += "    secrets: [token]\n"
            }
        }
        text += endpoints
        return text
    }

    /// Writes the collection to a file, creating its folder.
    ///
    /// - Returns: the file's URL.
    @discardableResult
    package static func write(for environments: [DemoEnvironment], to url: URL) throws -> URL {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(yaml(for: environments).utf8).write(to: url, options: .atomic)
        return url
    }

    /// Where the demo writes its collection when no `--collection-out` is given: a new folder
    /// of its own under the temporary directory, made by `mkdtemp` (mode 0700, a name nobody
    /// could have taken first), so that no folder another user prepared is written into.
    ///
    /// - Throws: `CocoaError` when the folder cannot be made.
    package static func defaultURL() throws -> URL {
        var template = Array(
            FileManager.default.temporaryDirectory.appendingPathComponent("explorer-demo-XXXXXX").path.utf8CString)
        guard let made = mkdtemp(&template) else {
            throw CocoaError(
                .fileWriteUnknown,
                userInfo: [
                    NSFilePathErrorKey: String(
                        decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self),
                    NSLocalizedDescriptionKey: String(cString: strerror(errno)),
                ])
        }
        return URL(fileURLWithPath: String(cString: made), isDirectory: true).appendingPathComponent("demo.yaml")
    }

    private static let endpoints = """
        endpoints:
          - folder: Users
            endpoints:
              - name: List users
                path: /users
                query: { page: "1", per_page: "{{per_page}}" }
              - name: Get user
                path: /users/{{user_id}}
              - name: Create user
                method: POST
                path: /users
                json: { name: Ada Lovelace, email: ada@example.com, role: admin }
                headers: { X-Request-Id: "{{uuid}}" }
              - name: Create invalid user (422)
                method: POST
                path: /users
                json: { name: "", email: not-an-email }
              - name: Update user
                method: PATCH
                path: /users/{{user_id}}
                json: { role: editor }
              - name: Delete user
                method: DELETE
                path: /users/{{user_id}}
              - name: Missing user (404)
                path: /users/9999
          - folder: Posts
            endpoints:
              - name: List posts
                path: /posts
                query: { page: "1", per_page: "{{per_page}}" }
              - name: Get post
                path: /posts/{{post_id}}
              - name: Create post
                method: POST
                path: /posts
                json: { userId: 1, title: Hello from explorer, body: Sent from the demo collection., tags: [demo] }
          - folder: Echo
            endpoints:
              - name: Echo query
                path: /echo
                query: { q: search terms, page: "2" }
              - name: Echo JSON
                method: POST
                path: /echo
                json: { hello: world, sentAt: "{{now}}" }
              - name: Echo form
                method: POST
                path: /echo
                form: { name: Ada, language: Swift }
          - folder: Auth
            endpoints:
              - name: Me without token (401)
                path: /me
              - name: Me with token
                path: /me
                headers: { Authorization: "Bearer {{token}}" }
              - name: Login
                method: POST
                path: /login
                json: { user: "{{user}}", password: "{{password}}" }
                capture:
                  session_token: $.token              # kept for later requests; secret (its name says token)
                  request_id: { header: X-Request-Id }
                assert:
                  - status == 200
                  - header Content-Type contains json
                  - jsonpath $.token startsWith tok-
                  - jsonpath $.roles[*] includes "admin"
                  - bytes < 10000
              - name: Session login (form, 303 and a cookie)
                method: POST
                path: /session/login
                form: { user: "{{user}}", password: "{{password}}" }
                assert:
                  - status == 200                     # after the 303 to /session/home, which read the cookie
                  - jsonpath $.signedIn == true
              - name: Session home
                path: /session/home
              - name: Me after login
                path: /me
                headers: { Authorization: "Bearer {{session_token}}" }
                requires:
                  - { endpoint: Auth/Login, max_age: 50s }   # the token lasts 60 s: log in again before
                assert:
                  - status == 200
                  - jsonpath $.username == ada
                  - jsonpath $.scopes isCollection
          - folder: Errors
            endpoints:
              - name: Server error (500 HTML)
                path: /error
              - name: Rate limited (429)
                path: /rate-limited
              - name: Not found (404)
                path: /nowhere
          - folder: Content
            endpoints:
              - name: Slow response
                path: /slow
                query: { ms: "3000" }
              - name: Large JSON
                path: /large
                query: { items: "20000" }
              - name: Redirect chain
                path: /redirect
                query: { n: "3" }
              - name: Gzip JSON
                path: /gzip
              - name: Binary image
                path: /image.png
              - name: Latin-1 text
                path: /latin1
              - name: Unicode JSON
                path: /unicode
              - name: XML
                path: /xml
              - name: Escape sequences
                path: /escape
          - folder: Streams
            endpoints:
              - name: Live events
                path: /stream/events
              - name: NDJSON feed
                path: /stream/ndjson
              - name: Endless body
                path: /stream/endless
              - name: Gzip bomb
                path: /stream/bomb
          - folder: OAuth2
            # The demo's authorization server (/oauth); tokens are cached per environment.
            auth:
              type: oauth2
              grant: client_credentials
              token_url: "{{oauth}}/token"
              client_id: explorer-demo
              client_secret: "{{client_secret}}"
              scope: read
            endpoints:
              - name: Me (client credentials)
                path: /me
              - name: Me (device code)
                path: /me
                auth:
                  type: oauth2
                  grant: device_code
                  token_url: "{{oauth}}/token"
                  device_authorization_url: "{{oauth}}/device"
                  client_id: explorer-demo
              - name: Me (authorization code)
                path: /me
                auth:
                  type: oauth2
                  grant: authorization_code
                  token_url: "{{oauth}}/token"
                  authorization_url: "{{oauth}}/authorize"
                  client_id: explorer-demo
          - folder: GraphQL
            endpoints:
              - name: Users and posts
                method: POST
                path: /graphql
                graphql:
                  query: |
                    query UsersAndPosts($first: Int) {
                      users { id name email }
                      posts(first: $first) { id title author { name } }
                    }
                  variables: { first: 3 }
                  operation: UsersAndPosts
              - name: User by id (GET)
                method: GET
                path: /graphql
                graphql:
                  query: |
                    query User($id: ID!) {
                      user(id: $id) { id name username posts { title } }
                    }
                  variables: { id: "{{user_id}}" }
              - name: Create post
                method: POST
                path: /graphql
                graphql:
                  query: |
                    mutation CreatePost($userId: ID!, $title: String!) {
                      createPost(userId: $userId, title: $title) { id title author { name } }
                    }
                  variables: { userId: "{{user_id}}", title: "Hello from GraphQL" }
              - name: Failing field (200 with errors)
                method: POST
                path: /graphql
                graphql:
                  query: |
                    {
                      user(id: 1) { name secretNote }
                    }
          - folder: WebSocket
            endpoints:
              - name: Echo socket
                path: /ws/echo
                websocket: true
                headers: { X-Client: explorer }
                messages:
                  - hello
                  - name: Subscribe (JSON)
                    json: { op: subscribe, channel: news, at: "{{now}}" }
                  - name: Close with 4000
                    text: close 4000 asked by the client
              - name: Ticks every second
                path: /ws/ticks
                websocket: true
              - name: Secure echo
                path: /ws/secure
                websocket: true
                headers: { Authorization: "Bearer {{token}}" }
          - folder: gRPC
            description: The same people and posts over gRPC (explorer.demo.v1.Directory, with reflection).
            endpoints:
              - name: Get user
                grpc: explorer.demo.v1.Directory/GetUser
                server: "{{grpc_url}}"
                message: { id: "{{user_id}}" }
              - name: Stream posts
                grpc: explorer.demo.v1.Directory/StreamPosts
                server: "{{grpc_url}}"
                message: { limit: 3, interval: 0.5s }
              - name: Tally reactions
                grpc: explorer.demo.v1.Directory/TallyReactions
                server: "{{grpc_url}}"
                messages:
                  - { postId: 1, kind: REACTION_KIND_LIKE }
                  - { postId: 2, kind: REACTION_KIND_FUNNY }
                  - { postId: 1, kind: REACTION_KIND_INSIGHTFUL }
              - name: Chat
                grpc: explorer.demo.v1.Directory/Chat
                server: "{{grpc_url}}"
                messages:
                  - { text: hello, author: "{{user_id}}" }
                  - { text: how are you?, author: "{{user_id}}" }
              - name: Create user (fails with details)
                grpc: explorer.demo.v1.Directory/CreateUser
                server: "{{grpc_url}}"
                message: { name: Grace }
              - name: Heartbeat (never ends)
                grpc: explorer.demo.v1.Directory/Heartbeat
                server: "{{grpc_url}}"
                message: { label: "{{now}}" }

        """
}
