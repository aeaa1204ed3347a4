import Foundation
import TestSupport
import Testing
import Yams

@testable import Workspace

/// `CollectionWriter.needsQuotes` answers from a text's bytes where Yams cannot read the text
/// as anything but text: its answer must be Yams' own for every text.
@Suite struct CollectionWriterQuotingTests {
    /// What Yams says: the text written plain reads back as null, a boolean, a number or a date.
    static func yamsNeedsQuotes(_ text: String) -> Bool {
        let plain = Node(text)
        return text.isEmpty || plain.null != nil || plain.bool != nil || plain.int != nil || plain.float != nil
            || plain.timestamp != nil
    }

    @Test func theFormsYAMLReadsAsOtherThanTextAreQuoted() {
        let samples = [
            "", "0", "7", "-1", "+1", "1_000", "_1", "0x1F", "0o17", "0b101", "017", "1:30", "-1:30:00", "1e5", "1E-5",
            ".5", "5.",
            "0x1p3", ".inf", "-.Inf", "+.INF", ".nan", "NaN", "nan", "inf", "Infinity", "-infinity", "nan(1)", "true",
            "True", "TRUE",
            "false", "yes", "Yes", "no", "NO", "on", "Off", "y", "n", "null", "Null", "~", "2024-01-01", "2024-1-1",
            "2024-01-01T00:00:00Z",
            "2024-01-01 10:00:00.5 -5", "2024-01-01\n", "2024-01-01\r\n", "2024-01-01\u{2028}", "2024-01-01\u{85}",
            "1\u{0}x", " 1", "1 ",
            "\t1", "++1", "-+1:2", "1__2", "___", "_", "1.2.3", "12:30:45.5", "0.0", "-0", "+.5e-3", "1e", "e1", "x",
            "off ",
        ]
        for text in samples {
            #expect(CollectionWriter.needsQuotes(text) == Self.yamsNeedsQuotes(text), "\(text.debugDescription)")
        }
    }

    @Test func textsOfEveryKindGetYamsAnswer() {
        // Short texts drawn from the characters numbers, dates and booleans are made of, and
        // some that none is: a seeded walk, the same cases at every run.
        let alphabet = Array("0123456789_+-.:eExXoObBpPiInNfFaAtTyYsSlLrRuU ()~/{}\t\n\u{0}Zzé∕\u{2028}")
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        func next() -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int(truncatingIfNeeded: (z ^ (z >> 31)) >> 1)
        }
        for _ in 0..<6000 {
            let text = String((0..<(1 + next() % 10)).map { _ in alphabet[next() % alphabet.count] })
            #expect(CollectionWriter.needsQuotes(text) == Self.yamsNeedsQuotes(text), "\(text.debugDescription)")
        }
    }

    @Test func theTextsOfRealDocumentsGetYamsAnswer() throws {
        var texts: Set<String> = []
        func collect(_ value: Any) {
            if let object = value as? [String: Any] {
                for (key, child) in object {
                    texts.insert(key)
                    collect(child)
                }
            } else if let array = value as? [Any] {
                array.forEach(collect)
            } else if let text = value as? String {
                texts.insert(text)
            } else if let number = value as? NSNumber {
                texts.insert(number.stringValue)
            }
        }
        for name in [
            "openapi/twilio-lookups-v2.json", "openapi/discord-openapi-reduced.json", "openapi/oai-swagger2-uber.json",
        ] {
            collect(try JSONSerialization.jsonObject(with: Data(contentsOf: Fixtures.url(name))))
        }
        #expect(texts.count > 500)
        for text in texts {
            #expect(CollectionWriter.needsQuotes(text) == Self.yamsNeedsQuotes(text), "\(text.debugDescription)")
        }
    }
}
