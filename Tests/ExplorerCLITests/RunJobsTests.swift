import Foundation
import Testing

@testable import ExplorerCLI
@testable import Workspace

/// `explorer run --jobs N`: which endpoints may go at once. Only those that neither capture nor
/// require; the others go alone, so what they capture reaches the endpoints after them as in a
/// sequential run.
@Suite struct RunJobsTests {
    private let collection = """
        name: Jobs
        environments: [{ name: local, base_url: "http://127.0.0.1:1" }]
        endpoints:
          - { name: A, path: /a }
          - { name: B, path: /b }
          - { name: C, path: /c }
          - name: Login
            path: /login
            capture: { token: $.token }
          - { name: D, path: /d, headers: { Authorization: "Bearer {{token}}" } }
          - { name: E, path: /e }
          - name: Me
            path: /me
            requires: [Login]
          - { name: F, path: /f }
        """

    @Test func independentEndpointsGoTogetherUpToNAndTheOthersAlone() throws {
        let endpoints = try CollectionLoader.parse(collection, file: "jobs.yaml").endpoints
        let names = { (batches: [[Endpoint]]) in batches.map { $0.map(\.name) } }
        #expect(
            names(RunCommand.batches(endpoints, jobs: 2)) == [
                ["A", "B"], ["C"], ["Login"], ["D", "E"], ["Me"], ["F"],
            ])
        #expect(
            names(RunCommand.batches(endpoints, jobs: 8)) == [["A", "B", "C"], ["Login"], ["D", "E"], ["Me"], ["F"]])
        #expect(
            names(RunCommand.batches(endpoints, jobs: 1)) == endpoints.map { [$0.name] },
            "one job is the sequential run")
    }
}
