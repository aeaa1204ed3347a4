import Foundation

/// The starting data of each demo environment.
///
/// The environments hold different people and posts on purpose: switching environments in the
/// explorer shows a visibly different answer for the same endpoint.
enum DemoSeed {
    static func users(for environment: String) -> [DemoUser] {
        let people: [(String, String)]
        switch environment {
        case "staging":
            people = [
                ("Grace Hopper", "grace"), ("Alan Turing", "alan"), ("Katherine Johnson", "katherine"),
                ("Edsger Dijkstra", "edsger"), ("Barbara Liskov", "barbara"), ("Donald Knuth", "don"),
                ("Frances Allen", "fran"), ("John Backus", "backus"),
            ]
        case "production":
            people = [
                ("Ada Lovelace", "ada"), ("Charles Babbage", "charles"), ("Hedy Lamarr", "hedy"),
            ]
        default:
            people = [
                ("Ada Lovelace", "ada"), ("Linus Torvalds", "linus"), ("Margaret Hamilton", "margaret"),
                ("Dennis Ritchie", "dmr"), ("Ken Thompson", "ken"), ("Radia Perlman", "radia"),
                ("Guido van Rossum", "guido"), ("Chris Lattner", "clattner"), ("Yukihiro Matsumoto", "matz"),
                ("Bjarne Stroustrup", "bjarne"), ("Anders Hejlsberg", "anders"), ("Sophie Wilson", "sophie"),
                ("Tim Berners-Lee", "timbl"), ("Vint Cerf", "vint"), ("Bob Kahn", "bob"),
                ("Jean Sammet", "jean"), ("Adele Goldberg", "adele"), ("Alan Kay", "alankay"),
                ("Niklaus Wirth", "wirth"), ("Shafi Goldwasser", "shafi"), ("Leslie Lamport", "lamport"),
                ("Joan Clarke", "joan"), ("Evelyn Berezin", "evelyn"), ("Mary Kenneth Keller", "mkk"),
                ("Annie Easley", "annie"),
            ]
        }
        let domain = environment == "local" ? "example.com" : "\(environment).example.com"
        return people.enumerated().map { index, person in
            DemoUser(
                id: index + 1,
                name: person.0,
                username: person.1,
                email: "\(person.1)@\(domain)",
                role: index == 0 ? "admin" : (index % 3 == 0 ? "editor" : "member"),
                createdAt: seedDate(dayOffset: index)
            )
        }
    }

    static func posts(for environment: String, users: [DemoUser]) -> [DemoPost] {
        let titles = [
            "Notes on the Analytical Engine", "Why I like small functions", "A field guide to HTTP status codes",
            "Pagination without tears", "Problem details, explained", "What a 429 is trying to tell you",
            "Idempotency keys in practice", "Streaming large JSON", "Character sets are not optional",
            "Environments and why they drift", "Reading a redirect chain", "Timeouts all the way down",
        ]
        let tags = [
            ["history", "computing"], ["style"], ["http"], ["api", "http"], ["errors", "rfc9457"],
            ["http", "limits"], ["api"], ["json", "performance"], ["text"], ["ops"], ["http"], ["networking"],
        ]
        let count = environment == "staging" ? 5 : (environment == "production" ? 3 : titles.count)
        return (0..<count).map { index in
            DemoPost(
                id: index + 1,
                userId: users[index % users.count].id,
                title: environment == "local" ? titles[index] : "[\(environment)] \(titles[index])",
                body: "Post \(index + 1) of the \(environment) environment. "
                    + String(repeating: "Lorem ipsum dolor sit amet. ", count: 2),
                tags: tags[index],
                published: index % 4 != 3
            )
        }
    }

    private static func seedDate(dayOffset: Int) -> String {
        let date = Date(timeIntervalSince1970: 1_735_689_600 + Double(dayOffset) * 86_400)
        return date.formatted(.iso8601)
    }
}

/// A user of the demo API.
struct DemoUser: Codable, Sendable, Equatable {
    var id: Int
    var name: String
    var username: String
    var email: String
    var role: String
    var createdAt: String
}

/// A post of the demo API.
struct DemoPost: Codable, Sendable, Equatable {
    var id: Int
    var userId: Int
    var title: String
    var body: String
    var tags: [String]
    var published: Bool
}
