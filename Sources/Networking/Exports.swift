// `Networking` is the library its users import: everything in `NetworkingCore` (the
// dispatcher, futures, transports over AsyncHTTPClient, hooks, encoders) and, here, what
// needs Foundation's URL loading system (`URLRequestDispatcher`, `URLSessionTransport`).
//
// The split is for the explorer: on Linux, FoundationNetworking brings libcurl and some thirty
// libraries it loads at every start (about 14 ms of a process's start here). The explorer's
// own targets import `NetworkingCore`, so its binary links none of them.
@_exported import NetworkingCore
