import Foundation
import Testing

@testable import Query
@testable import Workspace

/// One expansion of a template is bounded in steps and size: variables that each use the next
/// twice (2^40 expansions for 40 levels) stop at the limit with an error naming it.
@Suite struct TemplateLimitsTests {
    /// `v0` uses `v1` twice, `v1` uses `v2` twice, … down to `v{levels}`, a plain value.
    private func chain(levels: Int, leaf: String = "x") -> [KeyValue] {
        (0..<levels).map { KeyValue("v\($0)", "{{v\($0 + 1)}}{{v\($0 + 1)}}") } + [KeyValue("v\(levels)", leaf)]
    }

    @Test func fortyLevelsOfVariablesThatEachUseTheNextTwiceStopAtTheStepLimit() throws {
        let scope = VariableScope(
            collectionVariables: chain(levels: 40), processEnvironment: ["EXPLORER_MAX_TEMPLATE_STEPS": "2000"])
        #expect {
            try scope.expand("Bearer {{v0}}")
        } throws: { error in
            guard case .limit(let name, let limit)? = error as? VariableScope.Failure else { return false }
            return name == "v0" && limit.variable == "EXPLORER_MAX_TEMPLATE_STEPS"
                && limit.description
                    == "expanding it took more than 2000 steps (variables that use one another many times); "
                    + "set EXPLORER_MAX_TEMPLATE_STEPS to a larger value to allow more"
        }
        #expect(VariableScope(processEnvironment: [:]).limits.templateSteps == 100_000, "the default")
    }

    @Test func theResolverSaysWhichTemplatePassedWhichLimitAndHowToRaiseIt() throws {
        let collection = try CollectionLoader.parse(
            """
            name: x
            variables:
            \(chain(levels: 40).map { "  \($0.name): \"\($0.value)\"" }.joined(separator: "\n"))
            environments:
              - name: local
                base_url: http://127.0.0.1:1
            endpoints:
              - name: bomb
                path: /
                headers:
                  X-Bomb: "{{v0}}"
            """)
        #expect {
            try RequestResolver(processEnvironment: ["EXPLORER_MAX_TEMPLATE_STEPS": "500"])
                .resolve(try collection.endpoint(named: "bomb"), in: collection)
        } throws: { error in
            let text = "\(error)"
            return text.contains("{{v0}}") && text.contains("more than 500 steps")
                && text.contains("set EXPLORER_MAX_TEMPLATE_STEPS to a larger value")
        }
    }

    @Test func aValueThatGrowsPastTheSizeLimitIsAnErrorNamingIt() throws {
        var scope = VariableScope(
            collectionVariables: chain(levels: 12, leaf: String(repeating: "x", count: 1000)),
            processEnvironment: ["EXPLORER_MAX_TEMPLATE_SIZE": "64K"])
        #expect(scope.limits.templateSize == 65536)
        #expect(
            throws: VariableScope.Failure.limit(
                "v0",
                EvaluationLimitError(
                    problem: "its value grew past 65536 characters", variable: "EXPLORER_MAX_TEMPLATE_SIZE"))
        ) {
            try scope.value(of: "v0")
        }
        scope.limits.templateSize = 8 << 20
        #expect(try scope.value(of: "v0").count == 4096 * 1000, "a raised limit lets the same template through")
    }

    @Test func realTemplatesAreFarBelowTheLimits() throws {
        let scope = VariableScope(collectionVariables: chain(levels: 10), processEnvironment: [:])
        #expect(try scope.expand("{{v0}}").text == String(repeating: "x", count: 1024))
    }

    @Test func theLimitsAreReadFromTheEnvironmentAndNonsenseIsIgnored() {
        let limits = EvaluationLimits(environment: [
            "EXPLORER_MAX_TEMPLATE_STEPS": "2_000", "EXPLORER_MAX_TEMPLATE_SIZE": "-1",
            "EXPLORER_QUERY_TIMEOUT": "0.5", "EXPLORER_REGEX_TIMEOUT": "soon",
        ])
        #expect(limits.templateSteps == 2000)
        #expect(limits.templateSize == 64 << 20)
        #expect(limits.querySeconds == 0.5)
        #expect(limits.regexSeconds == 5)
    }
}
