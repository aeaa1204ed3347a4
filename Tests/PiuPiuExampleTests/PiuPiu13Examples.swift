import Foundation
import Networking

// Every code example of PiuPiu 1.3.1's README, as its users write them, in order. What differs
// from the README is marked `// Swift 6:` (what the language demands), `// README:` (a typo in
// the README that does not compile anywhere) or `// test:` (what the test records to check that
// the example does what the README says).

extension ViewController {
    // MARK: - "3. Making a request."

    func makingARequest(path: String) {
        let dispatcher = NetworkDispatcher(serverProvider: self)
        let request = BasicRequest(method: .get, path: path)

        dispatcher.future(from: request).response({ response in
            // Handles all responses including negative responses such as 4xx and 5xx

            // The error object is available if we get an
            // undesirable status code such as a 4xx or 5xx
            if let error = response.error {  // README: `if error = response.error {`
                // Throwing an error in any callback will trigger the `error` callback.
                // This allows us to pool all failures in one place.
                throw error
            }

            let post = try response.decode(Post.self)
            // Do something with our deserialized object
            // ...
            self.recorder.record("post \(post.id): \(post.title)")  // test:
        }).error({ error in
            // Handles any errors during the request process,
            // including anything thrown in any of the callback (except this one).
            self.recorder.record("error: \(error)")  // test:
        }).completion({
            // The completion callback is guaranteed to be called once
            // for every time the `start()` or `send()` method is triggered on the future.
            //
            self.recorder.record("completion on main: \(MainQueue.isCurrent)")  // test:
        }).start()
    }

    // MARK: - "4. Separating concerns and transforming the future"

    func callingGetPosts() {
        getPosts().response({ posts in
            // Handle the success which will give your posts.
            self.recorder.record("posts \(posts.map(\.id))")  // README: `responseExpectation.fulfill()`
        }).error({ error in
            // Triggers whenever an error is thrown.
            // This includes deserialization errors, unwraping failures, and anything else that is thrown
            // in a any other throwable callback.
            self.recorder.record("error: \(error)")  // test:
        }).completion({
            // Always triggered at the very end to inform you this future has been satisfied.
            self.recorder.record("completion")  // test:
        }).send()
    }

    // MARK: - "Future"

    func future(request: BasicRequest) {
        let dispatcher = NetworkDispatcher(serverProvider: self)
        dispatcher.future(from: request).then({ response -> Post in
            // Handles any responses and transforms them to another type
            // This includes negative responses such as 4xx and 5xx

            // The error object is available if we get an
            // undesirable status code such as a 4xx or 5xx
            if let error = response.error {
                // Throwing an error in any callback will trigger the `error` callback.
                // This allows us to pool all the errors in one place.
                throw error
            }

            return try response.decode(Post.self)
        }).replace({ post -> ResponseFuture<EnrichedPost> in
            // Perform some operation that itself uses a future
            // such as something heavy like markdown parsing.
            // Any callback can be transformed to a future.
            return self.enrich(post: post)
        }).join({ enrichedPost -> ResponseFuture<User> in
            // Joins a future with another one returning both results
            return self.fetchUser(forId: enrichedPost.post.userId)  // README: `post.userId` (`post` is not in scope)
        }).response({ enrichedPost, user in
            // The final response callback includes all the transformations and
            // Joins we had previously performed.
            self.recorder.record("\(enrichedPost.post.title) (\(enrichedPost.words) words) by \(user.name)")  // test:
        }).error({ error in
            // Handles any errors throw in any callbacks
            self.recorder.record("error: \(error)")  // test:
        }).completion({
            // At the end of all the callbacks, this is triggered once. Error or no error.
            self.recorder.record("completion")  // test:
        }).send()
    }

    // MARK: - "Callbacks"

    func callbacks(request: BasicRequest) {
        let dispatcher = NetworkDispatcher(serverProvider: self)

        // response callback
        dispatcher.future(from: request).response({ response in
            // Triggered when a response is recieved and all callbacks succeed.
            self.recorder.record("response \(response.statusCode.code)")  // test:
        }).send()  // test: `.send()`, without which nothing happens

        // error callback
        dispatcher.future(from: {
            throw SerializationError.encodingFailed(reason: "no request")  // test: something to catch
        }).error({ error in
            // Any errors thrown in any other callback will be triggered here.
            // Think of this as the `catch` on a `do` block.
            self.recorder.record("error: \(error)")  // test:
        }).send()  // test:

        // completion callback
        dispatcher.future(from: request).completion({
            // The completion callback guaranteed to be called once
            // for every time the `send` or `start` method is triggered on the callback.
            self.recorder.record("completion")  // test:
        }).send()  // test:

        // then callback
        dispatcher.future(from: request).then({ response -> Post in
            // The `then` callback transforms a successful response to another object
            // You can return any object here and this will be reflected on the `success` callback.
            return try response.decode(Post.self)
        }).response({ post in
            // Handles any success responses.
            // In this case the object returned in the `then` method.
            self.recorder.record("then: \(post.title)")  // test:
        }).send()  // test:

        // replace callback
        dispatcher.future(from: request).then({ response -> Post in
            return try response.decode(Post.self)
        }).replace({ post -> ResponseFuture<EnrichedPost> in
            // Perform some operation operation that itself requires a future
            // such as something heavy like markdown parsing.
            return self.enrich(post: post)
        }).response({ enrichedPost in
            // The final response callback has the enriched post.
            self.recorder.record("replace: \(enrichedPost.words) words")  // test:
        }).send()  // test:

        // join callback
        dispatcher.future(from: request).then({ response -> Post in
            return try response.decode(Post.self)
        }).join({ post -> ResponseFuture<User> in
            // Joins a future with another one returning both results
            return self.fetchUser(forId: post.userId)
        }).response({ post, user in
            // The final response callback includes both results.
            self.recorder.record("join: \(post.id) by \(user.name)")  // test:
        }).send()  // test:
    }

    // MARK: - "Creating your own ResponseFuture"

    func creatingYourOwnResponseFuture() {
        let dispatcher = NetworkDispatcher(serverProvider: self)
        dispatcher.future(from: BasicRequest(method: .get, path: "/posts"))
            .replace({ response in self.decodeInBackground(response) })
            .response({ posts in self.recorder.record("decoded in the background: \(posts.count) posts") })
            .send()
    }

    // MARK: - "Encoding"

    func encoding(jsonString: String, myCodable: Post, myData: Data) throws -> [BasicRequest] {
        var requests: [BasicRequest] = []
        do {
            // Encode JSON String
            var request = BasicRequest(method: .post, path: "/users")
            request.setJSONBody(string: jsonString, encoding: .utf8)
            requests.append(request)  // test:
        }
        do {
            // Encode JSON Object
            let jsonObject: [String: Any?] = [
                "id": "123",
                "name": "Kevin Malone",
            ]

            var request = BasicRequest(method: .post, path: "/users")
            try request.setJSONBody(jsonObject: jsonObject)
            requests.append(request)  // test:
        }
        do {
            // Encode Encodable
            var request = BasicRequest(method: .post, path: "/posts")
            try request.setJSONBody(encodable: myCodable)
            requests.append(request)  // test:
        }
        do {
            // Custom Encoding (By setting the Data object)
            var request = BasicRequest(method: .post, path: "/users")
            request.httpBody = myData
            requests.append(request)  // test:
        }
        return requests
    }

    func wrapEncodingInAResponseFuture(myCodable: Post) {
        let dispatcher = NetworkDispatcher(serverProvider: self)
        dispatcher.future(from: {
            var request = BasicRequest(method: .post, path: "/posts")
            try request.setJSONBody(myCodable)
            return request
        }).error({ error in
            // Any error thrown while creating the request will trigger this callback.
            self.recorder.record("error: \(error)")  // test:
        }).response({ response in self.recorder.record("sent: \(try response.decodeString())") })  // test:
            .send()
    }

    // MARK: - "Decoding"

    func decoding(request: BasicRequest) {
        let dispatcher = NetworkDispatcher(serverProvider: self)

        // Unwrapping Data
        dispatcher.future(from: request).response({ response in
            let data = try response.unwrapData()

            // do something with data.
            print(data)
            self.recorder.record("data: \(data.count) bytes")  // test:
        }).error({ error in
            // Triggered when the data object is not there.
            self.recorder.record("unwrapData error: \(error)")  // test:
        }).send()

        // Decode String
        dispatcher.future(from: request).response({ response in
            let string = try response.decodeString(encoding: .utf8)

            // do something with string.
            print(string)
            self.recorder.record("string: \(string)")  // test:
        }).error({ error in
            // Triggered when decoding fails.
            self.recorder.record("decodeString error: \(error)")  // test:
        }).send()

        // Decode Decodable
        dispatcher.future(from: request).response({ response in
            let posts = try response.decode([Post].self)

            // do something with the decodable object.
            print(posts)
            self.recorder.record("posts: \(posts.map(\.id))")  // test:
        }).error({ error in
            // Triggered when decoding fails.
            self.recorder.record("decode error: \(error)")  // test:
        }).send()
    }

    // MARK: - "Memory Managment"

    func strongCallbacks(request: BasicRequest) {
        let dispatcher = NetworkDispatcher(serverProvider: self)
        dispatcher.future(from: request).then({ response -> [Post] in
            // [weak self] not needed as `self` is not called but it doesn't hurt
            return try response.decode([Post].self)
        }).response({ posts in
            self.show(posts)
        }).send()
    }

    func forceUnwrappingATextField(request: BasicRequest) {
        let dispatcher = NetworkDispatcher(serverProvider: self)
        // The README's "DO NOT DO THIS": it compiles, and works while the text field exists.
        dispatcher.future(from: request).success({ response in
            // We are foce unwrapping a text field! DO NOT DO THIS!
            let textField = self.textField!

            // If we dealocated textField by the time the
            // response comes back, a crash will occur
            textField.text = "Success"
            self.recorder.record("text field: \(textField.text ?? "")")  // test:
        }).send()
    }

    func strongReferenceToAResponseFuture(request: BasicRequest) {
        let dispatcher = NetworkDispatcher(serverProvider: self)
        self.postResponseFuture = dispatcher.future(from: request).then({ response in
            // [weak self] not needed as `self` is not called
            let posts = try response.decode([Post].self)
            return SuccessResponse<[Post]>(data: posts, response: response)
        }).response({ [weak self] response in
            // [weak self] needed as `self` is called
            self?.show(response.data)
        }).completion({ [weak self] in
            // [weak self] needed as `self` is called
            self?.postResponseFuture = nil
            self?.recorder.record("postResponseFuture released: \(self?.postResponseFuture == nil)")  // test:
        })

        // Perform other logic, add delay, do whatever you would do that forced you
        // to store a reference to this ResponseFuture in the first place

        self.postResponseFuture?.send()
    }

    func circularReference(request: BasicRequest) {
        let dispatcher = NetworkDispatcher(serverProvider: self)
        // The README's "DO NOT DO THIS": `self` and the future hold each other (the test breaks
        // the cycle afterwards).
        self.strongResponseFuture = dispatcher.future(from: request).response({ response in
            // Both the `ResponseFuture` and `self` are held on by each other.
            // `self` will never be dealocated and neither will the future!
            self.show(response.data)
        }).send()
    }

    func weakReferenceToAResponseFuture(request: BasicRequest) {
        let dispatcher = NetworkDispatcher(serverProvider: self)
        self.weakResponseFuture = dispatcher.future(from: request).completion({
            // Always triggered
            self.recorder.record("weak: completion")  // test:
        }).send()

        // This ResponseFuture may or may not be nil at this point.
        // This depends on if the system is holding on to the
        // ResponseFuture as it is awaiting a response.
        // but the callbacks will always be triggered.
    }

    func weakReferenceBeforeSend(request: BasicRequest) {
        let dispatcher = NetworkDispatcher(serverProvider: self)
        // The README's "DO NOT DO THIS": nothing is ever sent.
        self.weakResponseFuture = dispatcher.future(from: request).completion({
            // [weak self]
            self.recorder.record("never: completion")  // README: `expectation.fulfill()`
        })

        // WHOOPS!!!!
        // Our object is already nil because we have not established a strong reference to it.
        // The `send()` method will do nothing and no callback will be triggered.

        self.weakResponseFuture?.send()
        self.recorder.record("weak future before send is nil: \(self.weakResponseFuture == nil)")  // test:
    }
}
