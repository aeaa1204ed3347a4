import Foundation
import Logging
import Synchronization
import Testing

@testable import Demo

/// The demo server's own parts: its request ids and its log.
@Suite struct DemoServerPartsTests {
    @Test func requestIDsAreVersion4UUIDsAndDoNotRepeat() throws {
        let shape = try Regex("^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$")
        var seen = Set<String>()
        for _ in 0..<100_000 {
            let id = DemoRequestID.next()
            #expect(id.wholeMatch(of: shape) != nil, "\(id)")
            seen.insert(id)
        }
        #expect(seen.count == 100_000)
        // Foundation reads it as the same UUID.
        let id = DemoRequestID.next()
        #expect(UUID(uuidString: id)?.uuidString.lowercased() == id)
    }

    @Test func aRequestIDKeepsItsBitsBesideTheVersionAndTheVariant() {
        #expect(DemoRequestID.format(high: 0, low: 0) == "00000000-0000-4000-8000-000000000000")
        #expect(DemoRequestID.format(high: .max, low: .max) == "ffffffff-ffff-4fff-bfff-ffffffffffff")
        #expect(
            DemoRequestID.format(high: 0x0123_4567_89AB_CDEF, low: 0xFEDC_BA98_7654_3210)
                == "01234567-89ab-4def-bedc-ba9876543210")
    }

    @Test func theLogWritesOnlyWhatReachesItsLevelWithItsMetadata() {
        let lines = Mutex<[String]>([])
        var logger = Logger(label: "explorer.demo") { label in
            DemoLogHandler(label: label) { line in lines.withLock { $0.append(line) } }
        }
        logger[metadataKey: "hb.request.id"] = "7"
        logger[metadataKey: "a"] = "first"
        logger.info("not written")
        logger.error("not written either")
        #expect(lines.withLock { $0 }.isEmpty)
        logger.critical("the server stopped", metadata: ["a": "overridden"])
        #expect(lines.withLock { $0 } == ["explorer.demo: critical: the server stopped a=overridden hb.request.id=7\n"])
        #expect(logger[metadataKey: "hb.request.id"] == "7")
        logger.logLevel = .info
        logger.info("now written")
        #expect(lines.withLock { $0 }.last == "explorer.demo: info: now written a=first hb.request.id=7\n")
    }
}
