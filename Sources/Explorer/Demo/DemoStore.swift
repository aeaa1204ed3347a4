/// The in-memory data of one demo environment: users and posts, changed by the CRUD routes.
actor DemoStore {
    private(set) var users: [DemoUser]
    private(set) var posts: [DemoPost]
    /// The tokens `POST /login` issued.
    let tokens = DemoTokens()
    /// The OAuth2 server's codes and refresh tokens.
    let oauth = DemoOAuth()

    init(environment: String) {
        let users = DemoSeed.users(for: environment)
        self.users = users
        self.posts = DemoSeed.posts(for: environment, users: users)
    }

    func user(id: Int) -> DemoUser? { users.first { $0.id == id } }

    func post(id: Int) -> DemoPost? { posts.first { $0.id == id } }

    func insert(_ user: DemoUser) -> DemoUser {
        var user = user
        user.id = (users.map(\.id).max() ?? 0) + 1
        users.append(user)
        return user
    }

    func insert(_ post: DemoPost) -> DemoPost {
        var post = post
        post.id = (posts.map(\.id).max() ?? 0) + 1
        posts.append(post)
        return post
    }

    /// Replaces the user with the same id; `false` when there is none.
    func update(_ user: DemoUser) -> Bool {
        guard let index = users.firstIndex(where: { $0.id == user.id }) else { return false }
        users[index] = user
        return true
    }

    /// Replaces the post with the same id; `false` when there is none.
    func update(_ post: DemoPost) -> Bool {
        guard let index = posts.firstIndex(where: { $0.id == post.id }) else { return false }
        posts[index] = post
        return true
    }

    func deleteUser(id: Int) -> Bool {
        guard let index = users.firstIndex(where: { $0.id == id }) else { return false }
        users.remove(at: index)
        posts.removeAll { $0.userId == id }
        return true
    }

    func deletePost(id: Int) -> Bool {
        guard let index = posts.firstIndex(where: { $0.id == id }) else { return false }
        posts.remove(at: index)
        return true
    }
}
