// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "explorer",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "Networking", targets: ["Networking"]),
        // gRPC through the same dispatcher model, and calls by JSON over a schema: a product of its
        // own, so that an HTTP-only user does not build grpc-swift and SwiftProtobuf.
        .library(name: "NetworkingGRPC", targets: ["NetworkingGRPC", "ProtoCodec"]),
        .executable(name: "explorer", targets: ["ExplorerCLI"]),
        .executable(name: "networking-bench", targets: ["NetworkingBench"]),
        .executable(name: "contract-bench", targets: ["ContractBench"]),
        .executable(name: "grpc-bench", targets: ["GRPCBench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-nio-http2", from: "1.46.0"),
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        .package(url: "https://github.com/hummingbird-project/swift-websocket", from: "1.6.2"),
        .package(url: "https://github.com/adam-fowler/compress-nio", from: "1.5.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/GraphQLSwift/GraphQL", from: "4.3.0"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
        .package(url: "https://github.com/apple/swift-protobuf", from: "1.39.0"),
        .package(url: "https://github.com/grpc/grpc-swift-2", from: "2.4.3"),
        .package(url: "https://github.com/grpc/grpc-swift-nio-transport", from: "2.9.2"),
        .package(url: "https://github.com/grpc/grpc-swift-protobuf", from: "2.4.1"),
        // `swift package generate-documentation --target Networking`: the library's DocC catalog.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CNcurses",
            providers: [.apt(["libncurses-dev"])]
        ),
        // The library as its users import it: NetworkingCore and what needs Foundation's URL
        // loading system (on Linux FoundationNetworking, which loads libcurl and some thirty
        // libraries at every start: the explorer's targets import NetworkingCore only).
        .target(
            name: "Networking",
            dependencies: ["NetworkingCore"]
        ),
        .target(
            name: "NetworkingCore",
            dependencies: [
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                // OAuth 1.0a's RSA-SHA256 (OAuth1Signer).
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "WSClient", package: "swift-websocket"),
            ],
            plugins: ["EmbedPublicSuffixList"]
        ),
        // Protocol Buffers messages without generated code: a schema from descriptors (reflection, a
        // descriptor set, protoc's output), the binary format and the proto3 JSON mapping both
        // ways, the well-known types.
        .target(
            name: "ProtoCodec",
            dependencies: [
                "NetworkingCore",
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ]
        ),
        // gRPC calls with the dispatcher's model (the ServerProvider's base URL at call time,
        // ResponseFuture, async sequences, metadata hooks), over grpc-swift-2 and its HTTP/2
        // transport (unary-shaped calls directly on swift-nio-http2's streams); server reflection (v1 and v1alpha), as a client and as a service.
        .target(
            name: "NetworkingGRPC",
            dependencies: [
                "NetworkingCore",
                .product(name: "GRPCCore", package: "grpc-swift-2"),
                .product(name: "GRPCNIOTransportHTTP2", package: "grpc-swift-nio-transport"),
                .product(name: "GRPCProtobuf", package: "grpc-swift-protobuf"),
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "NIOHPACK", package: "swift-nio-http2"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        // publicsuffix/public_suffix_list.dat compiled into NetworkingCore as one string literal
        // of its rules (see Plugins/EmbedPublicSuffixList and publicsuffix/README.md).
        .executableTarget(
            name: "PublicSuffixEmbedder",
            path: "Plugins/PublicSuffixEmbedder"
        ),
        .plugin(
            name: "EmbedPublicSuffixList",
            capability: .buildTool(),
            dependencies: ["PublicSuffixEmbedder"]
        ),
        // The explorer's layers, one target each under Sources/Explorer, so that a dependency
        // that runs the wrong way does not compile (see ARCHITECTURE.md).
        .target(
            name: "Terminal",
            path: "Sources/Explorer/Terminal"
        ),
        .target(
            name: "Curses",
            dependencies: ["CNcurses", "Terminal"],
            path: "Sources/Explorer/Curses"
        ),
        // The query languages a check or a filter reads a body with: JSONPath (RFC 9535), the
        // XPath subset and the markup tree it walks. Pure functions over values.
        .target(
            name: "Query",
            dependencies: ["NetworkingCore"],
            path: "Sources/Explorer/Query"
        ),
        // The collection: its model, loading, writing in place, variables and templates, and
        // request resolution (path -> query -> headers -> auth -> body). Named as Insomnia and
        // Postman name what a user keeps: `Collection` would shadow the standard library's.
        .target(
            name: "Workspace",
            dependencies: [
                "NetworkingCore",
                "Query",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "GraphQL", package: "GraphQL"),
            ],
            path: "Sources/Explorer/Workspace"
        ),
        // The JSON Schema engine: draft 2020-12, draft 4 and OpenAPI 3.0 schema objects compiled
        // once into a validator that names each violation by pointer in the body and the document.
        .target(
            name: "Contract",
            dependencies: ["NetworkingCore"],
            path: "Sources/Explorer/Contract"
        ),
        // Checks run on responses (captures, assertions) and the sequence runner.
        .target(
            name: "Checks",
            dependencies: ["Contract", "NetworkingCore", "Query", "Workspace"],
            path: "Sources/Explorer/Checks"
        ),
        // gRPC for the explorer: where a collection's schema comes from (server reflection, its
        // `protoset:`, its `protos:` through protoc), the schema cache, calls from endpoints.
        .target(
            name: "GRPCSupport",
            dependencies: [
                "Checks",
                "History",
                "NetworkingCore",
                "NetworkingGRPC",
                "ProtoCodec",
                "Workspace",
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ],
            path: "Sources/Explorer/GRPCSupport"
        ),
        // GraphQL schemas: introspection, the schema cache, the outline, server errors.
        .target(
            name: "GraphQLSupport",
            dependencies: [
                "NetworkingCore",
                "Workspace",
                .product(name: "GraphQL", package: "GraphQL"),
            ],
            path: "Sources/Explorer/GraphQLSupport"
        ),
        // Every importer and exporter: curl, OpenAPI/Swagger, .http, Postman, Insomnia, HAR,
        // Hurl, GraphQL SDL.
        .target(
            name: "Formats",
            dependencies: [
                "Checks",
                "Contract",
                "GraphQLSupport",
                "NetworkingCore",
                "Query",
                "Workspace",
                .product(name: "Yams", package: "Yams"),
                .product(name: "GraphQL", package: "GraphQL"),
            ],
            path: "Sources/Explorer/Formats"
        ),
        .target(
            name: "History",
            dependencies: [
                "Checks",
                "NetworkingCore",
                "Workspace",
                .product(name: "GRDB", package: "GRDB.swift"),
                // The C API, to bind a large body without a copy (ExchangeRow.insert).
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ],
            path: "Sources/Explorer/History"
        ),
        // Measuring responses: the structural comparison of two responses (JSON diff, headers,
        // status, timing, ignore rules) and the latency recorder of a load (HdrHistogram).
        .target(
            name: "Measure",
            dependencies: [
                "NetworkingCore",
                "Query",
                "Workspace",
                .product(name: "Histogram", package: "hdrhistogram-swift"),
            ],
            path: "Sources/Explorer/Measure"
        ),
        .target(
            name: "App",
            dependencies: [
                "Checks",
                "Curses",
                "Formats",
                "GraphQLSupport",
                "GRPCSupport",
                "NetworkingGRPC",
                "ProtoCodec",
                "History",
                "Measure",
                "NetworkingCore",
                "Query",
                "Terminal",
                "Workspace",
                .product(name: "Yams", package: "Yams"),
            ],
            path: "Sources/Explorer/App",
            plugins: ["EmbedThemes"]
        ),
        // themes/*.yaml compiled into App as string literals (see Plugins/EmbedThemes).
        .executableTarget(
            name: "ThemeEmbedder",
            path: "Plugins/ThemeEmbedder"
        ),
        .plugin(
            name: "EmbedThemes",
            capability: .buildTool(),
            dependencies: ["ThemeEmbedder"]
        ),
        // The commit the binary is built from, for `explorer --version` (see Plugins/EmbedCommit).
        .plugin(
            name: "EmbedCommit",
            capability: .buildTool()
        ),
        .target(
            name: "Demo",
            dependencies: [
                "NetworkingCore",
                .product(name: "Hummingbird", package: "hummingbird"),
                // DemoChildChannel's HTTP/1 channel set-up (NetworkingCore no longer brings it).
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "GraphQL", package: "GraphQL"),
                // DemoAPI+OAuth2's PKCE digest.
                .product(name: "Crypto", package: "swift-crypto"),
                // The demo's gRPC service (DemoGRPC) and its reflection.
                "NetworkingGRPC",
                .product(name: "GRPCCore", package: "grpc-swift-2"),
                .product(name: "GRPCNIOTransportHTTP2", package: "grpc-swift-nio-transport"),
                .product(name: "GRPCProtobuf", package: "grpc-swift-protobuf"),
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ],
            path: "Sources/Explorer/Demo",
            // The source of GRPC/Generated (scripts/generate-demo-grpc), kept beside it.
            exclude: ["GRPC/demo.proto"]
        ),
        // `explorer mock`: a local server answering a collection's endpoints from its OpenAPI
        // document's examples (or ones generated from the schemas) or from the history.
        .target(
            name: "Mock",
            dependencies: [
                "Contract",
                "History",
                "NetworkingCore",
                "Workspace",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "Sources/Explorer/Mock"
        ),
        .executableTarget(
            name: "ExplorerCLI",
            dependencies: [
                "App",
                "Checks",
                "Curses",
                "Demo",
                "Formats",
                "GraphQLSupport",
                "GRPCSupport",
                "History",
                "Measure",
                "Mock",
                "NetworkingCore",
                "NetworkingGRPC",
                "ProtoCodec",
                "Query",
                "Terminal",
                "Workspace",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Sources/Explorer/CLI",
            // The toolchain exports every symbol of an executable (61,000 here): the loader then
            // searches that table for every symbol it binds, and the Swift runtime's backtracer
            // walks all of it at start (`dladdr`, before `main`). Nothing looks the explorer's
            // own symbols up by name (metadata and tests are found through their sections):
            // unexported, the first frame comes 3.3 ms sooner and `explorer --version` 1.4 ms
            // (paired launches, release).
            linkerSettings: [.unsafeFlags(["-Xlinker", "--no-export-dynamic"])],
            plugins: ["EmbedCommit"]
        ),
        .executableTarget(
            name: "NetworkingBench",
            dependencies: [
                "Networking",
                "NetworkingCore",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Hummingbird", package: "hummingbird"),
            ]
        ),
        // gRPC calls through GRPCDispatcher against a raw grpc-swift-2 client, ProtoCodec against
        // generated code (scripts/bench-grpc).
        .executableTarget(
            name: "GRPCBench",
            dependencies: [
                "NetworkingCore",
                "NetworkingGRPC",
                "ProtoCodec",
                .product(name: "GRPCCore", package: "grpc-swift-2"),
                .product(name: "GRPCNIOTransportHTTP2", package: "grpc-swift-nio-transport"),
                .product(name: "GRPCProtobuf", package: "grpc-swift-protobuf"),
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ]
        ),
        // Schema validation time against parse time for a 10 MB body (scripts/bench-validate).
        .executableTarget(
            name: "ContractBench",
            dependencies: ["Contract", "NetworkingCore"]
        ),
        .testTarget(
            name: "NetworkingTests",
            dependencies: [
                "Networking",
                "NetworkingCore",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdHTTP2", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "X509", package: "swift-certificates"),
            ]
        ),
        .testTarget(
            name: "ProtoCodecTests",
            dependencies: [
                "ProtoCodec", "NetworkingCore", "TestSupport",
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ]
        ),
        .testTarget(
            name: "NetworkingGRPCTests",
            dependencies: [
                "NetworkingGRPC", "NetworkingCore", "ProtoCodec",
                .product(name: "GRPCCore", package: "grpc-swift-2"),
                .product(name: "GRPCNIOTransportHTTP2", package: "grpc-swift-nio-transport"),
                .product(name: "GRPCProtobuf", package: "grpc-swift-protobuf"),
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                // The tests' CA and certificates (grpcs://).
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
            ]
        ),
        .testTarget(
            name: "GRPCSupportTests",
            dependencies: [
                "GRPCSupport", "Demo", "NetworkingCore", "NetworkingGRPC", "ProtoCodec", "TestSupport", "Workspace",
            ]
        ),
        // PiuPiu's own README examples (1.3 and 2.x), as its users write them, against a real
        // server: only Networking, and Hummingbird for the server.
        .testTarget(
            name: "PiuPiuExampleTests",
            dependencies: [
                "Networking",
                .product(name: "Hummingbird", package: "hummingbird"),
            ]
        ),
        // Helpers the explorer's test targets share: fixtures, screen snapshots, collected
        // callbacks, the recording proxy (its file is NetworkingTests' own, linked).
        .target(
            name: "TestSupport",
            dependencies: [
                "Terminal",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "Tests/TestSupport"
        ),
        .testTarget(name: "QueryTests", dependencies: ["Query", "Demo", "NetworkingCore"]),
        .testTarget(
            name: "WorkspaceTests",
            dependencies: [
                "Workspace", "Demo", "Formats", "Query", "NetworkingCore", "Terminal", "TestSupport",
                .product(name: "Yams", package: "Yams"),
            ]
        ),
        .testTarget(name: "ContractTests", dependencies: ["Contract", "NetworkingCore", "TestSupport"]),
        .testTarget(
            name: "ChecksTests", dependencies: ["Checks", "Contract", "Demo", "Workspace", "Query", "NetworkingCore"]),
        .testTarget(
            name: "GraphQLSupportTests",
            dependencies: ["GraphQLSupport", "Checks", "Workspace", "Demo", "NetworkingCore"]
        ),
        .testTarget(
            name: "FormatsTests",
            dependencies: [
                "Checks", "Formats", "Demo", "GraphQLSupport", "NetworkingCore", "TestSupport", "Workspace",
            ]
        ),
        .testTarget(
            name: "HistoryTests",
            dependencies: [
                "History", "Checks", "NetworkingCore", "Terminal", "TestSupport", "Workspace",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .testTarget(
            name: "MeasureTests",
            dependencies: [
                "Measure", "Demo", "NetworkingCore", "Query", "TestSupport", "Workspace",
                .product(name: "Hummingbird", package: "hummingbird"), .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(name: "TerminalTests", dependencies: ["Terminal"]),
        .testTarget(name: "CursesTests", dependencies: ["App", "Curses", "CNcurses", "Terminal"]),
        .testTarget(
            name: "AppTests",
            dependencies: [
                "App", "Checks", "Contract", "Demo", "Formats", "GraphQLSupport", "GRPCSupport", "History", "Measure",
                "NetworkingCore",
                "Query", "Terminal", "TestSupport", "Workspace",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .testTarget(
            name: "MockTests",
            dependencies: [
                "Mock", "Contract", "Demo", "History", "NetworkingCore", "Workspace",
            ]
        ),
        .testTarget(
            name: "DemoTests",
            dependencies: [
                "Contract", "Demo", "NetworkingCore", "NetworkingGRPC", "TestSupport", "Workspace",
                .product(name: "Logging", package: "swift-log"),
                // DemoGRPCTests: a grpc-swift-2 client of the demo's gRPC service.
                .product(name: "GRPCCore", package: "grpc-swift-2"),
                .product(name: "GRPCNIOTransportHTTP2", package: "grpc-swift-nio-transport"),
                .product(name: "GRPCProtobuf", package: "grpc-swift-protobuf"),
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ]
        ),
        .testTarget(
            name: "ExplorerCLITests",
            dependencies: [
                "ExplorerCLI", "App", "Demo", "Formats", "History", "NetworkingCore", "TestSupport", "Workspace",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
