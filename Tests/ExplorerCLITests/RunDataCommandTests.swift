import Checks
import Foundation
import Testing

@testable import ExplorerCLI

/// `explorer run --data`: a request of an iteration that cannot be built names the row, and a
/// variable neither the row nor the environment gives says how to give it.
@Suite struct RunDataCommandTests {
    private let row = DataRow(number: 2, line: 3, values: ["name": "Ada"])

    @Test func anUndefinedVariableNamesTheRowAndTheColumnToAdd() {
        let error =
            "c.yaml:9:11: The variable {{id}} used in the path of endpoint \"Get\" is undefined: define it in the "
            + "environment or the collection's variables, or pass --var id=VALUE."
        #expect(
            RunCommand.rowError(error, row: row, dataFile: "people.csv")
                == "people.csv row 2 (line 3): c.yaml:9:11: the variable {{id}} used in the path of endpoint \"Get\" "
                + "is given by neither the row nor the environment: add the column id to people.csv, define it in "
                + "the environment, or pass --var id=VALUE.")
    }

    @Test func anyOtherErrorIsSaidWithTheRowBeforeIt() {
        let error = "c.yaml:9:11: The variable {{env.TOKEN}} used in a header is undefined: set TOKEN."
        #expect(RunCommand.rowError(error, row: row, dataFile: "p.csv") == "p.csv row 2 (line 3): " + error)
    }

    @Test func theSummarySaysWhereABailStoppedAndCarriesTheIterations() {
        let summary = RunSummary(
            collection: "C", environment: "local", results: [], seconds: 0, startedAt: Date(),
            iterations: [RunIteration(number: 1, row: row)], dataFile: "p.csv", notRun: 1)
        #expect(summary.table.hasSuffix("Stopped at the first failure (--bail): 1 request not run.\n"))
        let object = summary.jsonObject
        #expect(object["data"] as? String == "p.csv")
        #expect(object["notRun"] as? Int == 1)
        #expect((object["iterations"] as? [[String: Any]])?.first?["line"] as? Int == 3)
        #expect(
            RunSummary(collection: "C", environment: "l", results: [], seconds: 0, startedAt: Date()).stoppedLine == nil
        )
    }
}
