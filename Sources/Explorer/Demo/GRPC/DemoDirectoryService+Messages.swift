import Foundation
import SwiftProtobuf

// The demo's data as the generated messages of `demo.proto`.

extension Explorer_Demo_V1_User {
    /// A user of an environment's store, with the number of posts they wrote there.
    init(_ user: DemoUser, postCount: Int, environment: String) {
        self.init()
        id = Int32(user.id)
        name = user.name
        username = user.username
        email = user.email
        role = Explorer_Demo_V1_Role(demoRole: user.role)
        if let created = try? Date(user.createdAt, strategy: .iso8601) {
            createdAt = Google_Protobuf_Timestamp(date: created)
        }
        self.postCount = Google_Protobuf_Int32Value(Int32(postCount))
        labels = ["environment": environment, "profile": "/v1/users/\(user.id)"]
    }
}

extension Explorer_Demo_V1_Role {
    /// The HTTP demo's role names (`admin`, `editor`, `member`).
    init(demoRole: String) {
        switch demoRole {
        case "admin": self = .admin
        case "editor": self = .editor
        case "member": self = .member
        default: self = .unspecified
        }
    }
}

extension Explorer_Demo_V1_Post {
    init(_ post: DemoPost) {
        self.init()
        id = Int32(post.id)
        userID = Int32(post.userId)
        title = post.title
        body = post.body
        tags = post.tags
        published = post.published
    }
}

extension Explorer_Demo_V1_ReactionKind {
    /// The value's name in `demo.proto` (`REACTION_KIND_LIKE`), the key of a tally's `by_kind`.
    var protoName: String {
        switch self {
        case .unspecified: "REACTION_KIND_UNSPECIFIED"
        case .like: "REACTION_KIND_LIKE"
        case .insightful: "REACTION_KIND_INSIGHTFUL"
        case .funny: "REACTION_KIND_FUNNY"
        case .UNRECOGNIZED(let number): String(number)
        }
    }
}
