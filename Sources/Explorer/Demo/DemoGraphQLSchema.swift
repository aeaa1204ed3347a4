import Foundation
import GraphQL

/// The demo's GraphQL schema, served at `/graphql` with the GraphQL reference implementation
/// for Swift: users and posts from the environment's store, a mutation that adds a post, a
/// deprecated field, and `User.secretNote`, a field that always fails (so a `200 OK` with
/// `errors` can be seen).
///
/// ```graphql
/// type Query { users(role: String): [User!]!  user(id: ID!): User  posts(first: Int): [Post!]!  post(id: ID!): Post }
/// type Mutation { createPost(userId: ID!, title: String!, body: String): Post! }
/// ```
enum DemoGraphQLSchema {
    /// The message of the field that fails.
    static let secretNoteFailure = "secretNote is private: the demo never shows it"

    /// The schema; resolvers read the `DemoStore` passed as the context.
    static let schema: GraphQLSchema = {
        do {
            return try makeSchema()
        } catch {
            fatalError("the demo's GraphQL schema is invalid: \(error)")
        }
    }()

    /// An error a resolver throws; GraphQLSwift adds the field's path and location to it
    /// (a `GraphQLError` thrown there would go out without them).
    struct FieldFailure: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }

    private static func store(_ context: any Sendable) throws -> DemoStore {
        guard let store = context as? DemoStore else { throw GraphQLError(message: "the demo's store is missing") }
        return store
    }

    private static func id(_ args: Map, _ name: String = "id") throws -> Int {
        guard let id = Int(args[name].string ?? "") ?? args[name].int else {
            throw FieldFailure(message: "\(name) must be a number, not \(args[name])")
        }
        return id
    }

    private static func makeSchema() throws -> GraphQLSchema {
        // User and Post refer to each other: each one's fields are made when first asked for.
        nonisolated(unsafe) var postType: GraphQLObjectType!
        let userType = try GraphQLObjectType(
            name: "User",
            description: "A person who writes posts.",
            fields: {
                [
                    "id": GraphQLField(
                        type: GraphQLNonNull(GraphQLID),
                        resolve: { source, _, _, _ in (source as? DemoUser).map { String($0.id) } }),
                    "name": GraphQLField(type: GraphQLNonNull(GraphQLString), description: "The full name."),
                    "username": GraphQLField(type: GraphQLNonNull(GraphQLString), description: "The handle, unique."),
                    "login": GraphQLField(
                        type: GraphQLString, description: "The handle, as it was called before.",
                        deprecationReason: "Use username.",
                        resolve: { source, _, _, _ in (source as? DemoUser)?.username }),
                    "email": GraphQLField(type: GraphQLNonNull(GraphQLString)),
                    "role": GraphQLField(type: GraphQLNonNull(GraphQLString), description: "admin or member."),
                    "createdAt": GraphQLField(
                        type: GraphQLNonNull(GraphQLString), description: "When the account was made (ISO 8601)."),
                    "posts": GraphQLField(
                        type: GraphQLNonNull(GraphQLList(GraphQLNonNull(postType))),
                        description: "The user's posts, oldest first.",
                        resolve: { source, _, context, _ in
                            guard let user = source as? DemoUser else { return [DemoPost]() }
                            return try await store(context).posts.filter { $0.userId == user.id }
                        }),
                    "secretNote": GraphQLField(
                        type: GraphQLString, description: "A field that always fails: its error comes with the data.",
                        resolve: { _, _, _, _ in throw FieldFailure(message: secretNoteFailure) }),
                ]
            })
        postType = try GraphQLObjectType(
            name: "Post",
            description: "A post by a user.",
            fields: [
                "id": GraphQLField(
                    type: GraphQLNonNull(GraphQLID),
                    resolve: { source, _, _, _ in (source as? DemoPost).map { String($0.id) } }),
                "title": GraphQLField(type: GraphQLNonNull(GraphQLString)),
                "body": GraphQLField(type: GraphQLNonNull(GraphQLString)),
                "tags": GraphQLField(type: GraphQLNonNull(GraphQLList(GraphQLNonNull(GraphQLString)))),
                "published": GraphQLField(type: GraphQLNonNull(GraphQLBoolean)),
                "author": GraphQLField(
                    type: userType, description: "Who wrote it.",
                    resolve: { source, _, context, _ in
                        guard let post = source as? DemoPost else { return nil }
                        return try await store(context).user(id: post.userId)
                    }),
            ])
        let queryType = try GraphQLObjectType(
            name: "Query",
            fields: [
                "users": GraphQLField(
                    type: GraphQLNonNull(GraphQLList(GraphQLNonNull(userType))),
                    description: "Every user, or those of one role.",
                    args: ["role": GraphQLArgument(type: GraphQLString, description: "admin or member.")],
                    resolve: { _, args, context, _ in
                        let users = try await store(context).users
                        guard let role = args["role"].string else { return users }
                        return users.filter { $0.role == role }
                    }),
                "user": GraphQLField(
                    type: userType, description: "One user, or null when no user has the id.",
                    args: ["id": GraphQLArgument(type: GraphQLNonNull(GraphQLID))],
                    resolve: { _, args, context, _ in try await store(context).user(id: try id(args)) }),
                "posts": GraphQLField(
                    type: GraphQLNonNull(GraphQLList(GraphQLNonNull(postType))),
                    description: "The posts, oldest first.",
                    args: ["first": GraphQLArgument(type: GraphQLInt, description: "At most this many.")],
                    resolve: { _, args, context, _ in
                        let posts = try await store(context).posts
                        guard let first = args["first"].int else { return posts }
                        return Array(posts.prefix(max(0, first)))
                    }),
                "post": GraphQLField(
                    type: postType, description: "One post, or null.",
                    args: ["id": GraphQLArgument(type: GraphQLNonNull(GraphQLID))],
                    resolve: { _, args, context, _ in try await store(context).post(id: try id(args)) }),
            ])
        let mutationType = try GraphQLObjectType(
            name: "Mutation",
            fields: [
                "createPost": GraphQLField(
                    type: GraphQLNonNull(postType), description: "Adds a post (kept until the demo stops).",
                    args: [
                        "userId": GraphQLArgument(type: GraphQLNonNull(GraphQLID)),
                        "title": GraphQLArgument(type: GraphQLNonNull(GraphQLString)),
                        "body": GraphQLArgument(type: GraphQLString, defaultValue: .string("")),
                    ],
                    resolve: { _, args, context, _ in
                        let store = try store(context)
                        let userId = try id(args, "userId")
                        guard await store.user(id: userId) != nil else {
                            throw FieldFailure(message: "no user has the id \(userId)")
                        }
                        let post = DemoPost(
                            id: 0, userId: userId, title: args["title"].string ?? "", body: args["body"].string ?? "",
                            tags: [], published: false)
                        return await store.insert(post)
                    })
            ])
        return try GraphQLSchema(query: queryType, mutation: mutationType)
    }
}
