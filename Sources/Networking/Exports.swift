// `Networking` is the library its users import: everything in `NetworkingCore` (the
// dispatcher, futures, transports over AsyncHTTPClient, hooks, encoders) and, here, what
// needs Foundation's URL loading system (`URLRequestDispatcher`, `URLSessionTransport`).
//
// The split is for the explorer: on Linux, FoundationNetworking brings libcurl and some thirty
// libraries it loads at every start (a hello-world took 18–20 ms with it, 4–7 ms without). The explorer's
// own targets import `NetworkingCore`, so its binary links none of them.
@_exported import NetworkingCore
