import Foundation
import Testing

@testable import App

@Suite struct ClockTextTests {
    /// Every hour and a half over two years (two daylight-saving changes each way), in zones
    /// with and without daylight saving time and with a half-hour offset: the text a calendar's
    /// components give.
    @Test(arguments: ["UTC", "Europe/Paris", "America/New_York", "Asia/Kolkata", "Australia/Adelaide"])
    func readsAsACalendarsHourAndMinute(zone: String) throws {
        let timeZone = try #require(TimeZone(identifier: zone))
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        var date = Date(timeIntervalSince1970: 1_699_999_999)
        for _ in 0..<(2 * 365 * 16) {
            let parts = calendar.dateComponents([.hour, .minute], from: date)
            let expected = String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
            #expect(ClockText.hourMinute(date, in: timeZone) == expected, "\(date) in \(zone)")
            if ClockText.hourMinute(date, in: timeZone) != expected { return }
            date += 5_431
        }
    }

    @Test func aTimeBefore1970() throws {
        let utc = try #require(TimeZone(identifier: "UTC"))
        #expect(ClockText.hourMinute(Date(timeIntervalSince1970: -60), in: utc) == "23:59")
        #expect(ClockText.hourMinute(Date(timeIntervalSince1970: -0.5), in: utc) == "23:59")
    }
}
