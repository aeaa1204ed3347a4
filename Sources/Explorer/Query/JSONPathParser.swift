import NetworkingCore

extension JSONPath {
    /// A recursive-descent parser of RFC 9535's grammar (§2 and Appendix A): one function per
    /// rule, named as the ABNF names it. It reads Unicode scalars, as the ABNF is written;
    /// positions in messages count them from 1.
    struct Parser {
        private var scanner: QueryScanner<Unicode.Scalar>
        private let expression: String
        private let syntax: Syntax
        /// How many filters, parentheses and function calls enclose the current position.
        private var nesting = 0

        /// The largest integer an index or slice may hold (I-JSON: 2^53 − 1, §2.1).
        static let maximumInteger = 9_007_199_254_740_991

        /// A parser at the start of `expression`.
        init(_ expression: String, syntax: Syntax) {
            scanner = QueryScanner(expression)
            self.expression = expression
            self.syntax = syntax
        }

        // MARK: Queries and segments

        /// `jsonpath-query = root-identifier segments`, with the lenient syntax's blanks
        /// around it and its optional `$`; the whole expression must be read.
        mutating func parse() throws(Failure) -> Query {
            if syntax == .lenient {
                skipBlanks()
                // An empty filter box: the whole document, as `$`.
                if scanner.isAtEnd { return Query(isAbsolute: true, segments: []) }
            }
            var segments: [Segment] = []
            if !scanner.consume("$") {
                guard syntax == .lenient else {
                    throw failure("A JSONPath query starts with $ (as in $.items[0])", at: scanner.position)
                }
                // `items[0]`: the first name is a member of the document.
                if let first = scanner.peek, Self.isNameFirst(first) {
                    segments.append(Segment(isDescendant: false, selectors: [.name(memberNameShorthand())]))
                } else if scanner.peek != "[" && scanner.peek != "." {
                    throw unexpected(expecting: "$ or a member name")
                }
            }
            segments += try self.segments()
            if syntax == .lenient { skipBlanks() }
            guard scanner.isAtEnd else {
                if Self.isBlank(scanner.peek!) {
                    throw failure("Unexpected blank (the query must end without one)", at: scanner.position)
                }
                throw unexpected(expecting: nil)
            }
            return Query(isAbsolute: true, segments: segments)
        }

        /// `segments = *(S segment)`: as many segments as follow, blanks allowed between them.
        private mutating func segments() throws(Failure) -> [Segment] {
            var segments: [Segment] = []
            while true {
                let start = scanner.position
                skipBlanks()
                guard let segment = try segment() else {
                    scanner.position = start
                    return segments
                }
                segments.append(segment)
            }
        }

        /// `segment = child-segment / descendant-segment`, or `nil` (nothing read) when neither
        /// comes next.
        private mutating func segment() throws(Failure) -> Segment? {
            if scanner.consume("..") { return try descendantSegment() }
            if scanner.consume(".") {
                if scanner.consume("*") { return Segment(isDescendant: false, selectors: [.wildcard]) }
                return Segment(isDescendant: false, selectors: [.name(try requiredMemberName(after: "."))])
            }
            if scanner.peek == "[" {
                let start = scanner.position
                let selectors = try bracketedSelection()
                let isSpaced = scanner.elements[start..<scanner.position].contains(where: Self.isBlank)
                return Segment(isDescendant: false, selectors: selectors, isSpaced: isSpaced)
            }
            return nil
        }

        /// `descendant-segment = ".." (bracketed-selection / wildcard-selector / member-name-shorthand)`,
        /// after the `..`.
        private mutating func descendantSegment() throws(Failure) -> Segment {
            if scanner.peek == "[" { return Segment(isDescendant: true, selectors: try bracketedSelection()) }
            if scanner.consume("*") { return Segment(isDescendant: true, selectors: [.wildcard]) }
            return Segment(isDescendant: true, selectors: [.name(try requiredMemberName(after: ".."))])
        }

        /// A `member-name-shorthand` that must come after `.` or `..`.
        private mutating func requiredMemberName(after dots: String) throws(Failure) -> String {
            guard let next = scanner.peek, Self.isNameFirst(next) else {
                if let next = scanner.peek, Self.isDigit(next) || next == "-" {
                    throw failure(
                        "A member name after \(dots) cannot start with "
                            + "\"\(next)\" (write ['\(next)…'] for such a name, "
                            + "or [\(next)…] for an index)", at: scanner.position)
                }
                throw failure("Expected a member name or * after \(dots)", at: scanner.position)
            }
            return memberNameShorthand()
        }

        /// `member-name-shorthand = name-first *name-char`; the lenient syntax also takes `-`
        /// after the first character. The caller has checked the first.
        private mutating func memberNameShorthand() -> String {
            let start = scanner.position
            scanner.advance()
            let lenient = syntax == .lenient
            scanner.skip { Self.isNameFirst($0) || Self.isDigit($0) || (lenient && $0 == "-") }
            return scanner.text(from: start)
        }

        /// `bracketed-selection = "[" S selector *(S "," S selector) S "]"`.
        private mutating func bracketedSelection() throws(Failure) -> [Selector] {
            _ = scanner.consume("[")
            var selectors: [Selector] = []
            repeat {
                skipBlanks()
                selectors.append(try selector())
                skipBlanks()
            } while scanner.consume(",")
            guard scanner.consume("]") else {
                throw failure(
                    scanner.isAtEnd ? "Expected ]" : "Expected , or ] instead of \"\(scanner.peek!)\"",
                    at: scanner.position)
            }
            return selectors
        }

        // MARK: Selectors

        /// `selector = name-selector / wildcard-selector / slice-selector / index-selector / filter-selector`.
        private mutating func selector() throws(Failure) -> Selector {
            switch scanner.peek {
            case "'", "\"": return .name(try stringLiteral())
            case "*":
                scanner.advance()
                return .wildcard
            case "?":
                scanner.advance()
                skipBlanks()
                return .filter(try nested { (parser: inout Parser) throws(Failure) in try parser.logicalExpression() })
            default:
                return try sliceOrIndexSelector()
            }
        }

        /// `index-selector = int` or
        /// `slice-selector = [start S] ":" S [end S] [":" [S step]]`.
        private mutating func sliceOrIndexSelector() throws(Failure) -> Selector {
            let start = try int()
            let afterStart = scanner.position
            skipBlanks()
            guard scanner.consume(":") else {
                scanner.position = afterStart
                guard let start else {
                    throw unexpected(
                        expecting: "a selector (a quoted name, *, an index, a slice such as 1:3, or a filter ?@.a)")
                }
                return .index(start)
            }
            skipBlanks()
            let end = try int()
            skipBlanks()
            var step: Int?
            if scanner.consume(":") {
                skipBlanks()
                step = try int()
            }
            return .slice(start: start, end: end, step: step)
        }

        /// `int = "0" / (["-"] DIGIT1 *DIGIT)` within ±(2^53 − 1), or `nil` (nothing read) when
        /// no digit or `-` comes next.
        private mutating func int() throws(Failure) -> Int? {
            guard let first = scanner.peek, first == "-" || Self.isDigit(first) else { return nil }
            let start = scanner.position
            _ = scanner.consume("-")
            let digits = scanner.take(while: Self.isDigit)
            guard !digits.isEmpty else { throw failure("Expected a digit after -", at: scanner.position) }
            if digits.hasPrefix("0") {
                guard digits == "0" else {
                    throw failure("An integer cannot start with 0 (write \(Int(digits) ?? 0))", at: start)
                }
                guard first != "-" else { throw failure("-0 is not an index; write 0", at: start) }
            }
            guard digits.count <= 16, let value = Int(scanner.text(from: start)), abs(value) <= Self.maximumInteger
            else {
                throw failure(
                    "\(scanner.text(from: start)) is out of range (integers are within ±9007199254740991)", at: start)
            }
            return value
        }

        // MARK: Filters

        /// `logical-expr = logical-or-expr`, `logical-or-expr = logical-and-expr *(S "||" S logical-and-expr)`.
        private mutating func logicalExpression() throws(Failure) -> LogicalExpression {
            var terms = [try logicalAndExpression()]
            while consumeAfterBlanks("||") {
                skipBlanks()
                terms.append(try logicalAndExpression())
            }
            return terms.count == 1 ? terms[0] : .or(terms)
        }

        /// `logical-and-expr = basic-expr *(S "&&" S basic-expr)`.
        private mutating func logicalAndExpression() throws(Failure) -> LogicalExpression {
            var terms = [try basicExpression()]
            while consumeAfterBlanks("&&") {
                skipBlanks()
                terms.append(try basicExpression())
            }
            return terms.count == 1 ? terms[0] : .and(terms)
        }

        /// `basic-expr = paren-expr / comparison-expr / test-expr`, where
        /// `paren-expr = [logical-not-op S] "(" S logical-expr S ")"` and
        /// `test-expr = [logical-not-op S] (filter-query / function-expr)`.
        private mutating func basicExpression() throws(Failure) -> LogicalExpression {
            if scanner.consume("!") {
                skipBlanks()
                if scanner.peek == "(" { return .not(try parenExpression()) }
                let start = scanner.position
                guard let operand = try operand(), !isLiteral(operand) else {
                    throw failure("Expected a query (@.a, $.a), a function or ( after !", at: start)
                }
                return .not(try test(operand, at: start))
            }
            if scanner.peek == "(" { return try parenExpression() }
            return try comparisonOrTest()
        }

        /// `paren-expr`'s `"(" S logical-expr S ")"`.
        private mutating func parenExpression() throws(Failure) -> LogicalExpression {
            let open = scanner.position
            scanner.advance()
            return try nested { (parser: inout Parser) throws(Failure) in
                parser.skipBlanks()
                let expression = try parser.logicalExpression()
                parser.skipBlanks()
                guard parser.scanner.consume(")") else {
                    throw parser.failure(
                        "Expected ) to close the ( at position \(open + 1)", at: parser.scanner.position)
                }
                return expression
            }
        }

        /// `comparison-expr = comparable S comparison-op S comparable`, or a `test-expr`
        /// without `!`.
        private mutating func comparisonOrTest() throws(Failure) -> LogicalExpression {
            let start = scanner.position
            guard let left = try operand() else {
                throw unexpected(expecting: "a test or a comparison (@.a, @.a == 1, length(@) > 2)")
            }
            let afterLeft = scanner.position
            skipBlanks()
            guard let comparison = comparisonOperator() else {
                scanner.position = afterLeft
                return try test(left, at: start)
            }
            skipBlanks()
            let rightStart = scanner.position
            guard let right = try operand() else {
                throw unexpected(expecting: "a value to compare with (a literal, a singular query or a function)")
            }
            return .comparison(try comparable(left, at: start), comparison, try comparable(right, at: rightStart))
        }

        /// `comparison-op = "==" / "!=" / "<=" / ">=" / "<" / ">"`, or `nil` (nothing read).
        private mutating func comparisonOperator() -> ComparisonOperator? {
            ComparisonOperator.allCases.first { scanner.consume($0.rawValue) }
        }

        /// What may stand on either side of a comparison or alone as a test, before the types
        /// are checked: a literal, a query or a function call.
        private enum Operand {
            case literal(JSONValue)
            case query(Query)
            case function(FunctionCall)
        }

        /// Whether the operand is a literal.
        private func isLiteral(_ operand: Operand) -> Bool {
            if case .literal = operand { return true }
            return false
        }

        /// A `literal`, `filter-query` or `function-expr`, or `nil` (nothing read) when none
        /// starts here.
        private mutating func operand() throws(Failure) -> Operand? {
            guard let next = scanner.peek else { return nil }
            switch next {
            case "@", "$": return .query(try filterQuery())
            case "'", "\"": return .literal(.string(try stringLiteral()))
            case "-", "0"..."9": return .literal(try number())
            default: break
            }
            for (word, value) in [("true", JSONValue.bool(true)), ("false", .bool(false)), ("null", .null)]
            where scanner.isLooking(at: word) {
                let after = scanner.peek(at: word.unicodeScalars.count)
                if after.map({ Self.isFunctionNameChar($0) || $0 == "(" }) != true {
                    scanner.advance(by: word.unicodeScalars.count)
                    return .literal(value)
                }
            }
            if Self.isLowercaseLetter(next) { return .function(try functionExpression()) }
            return nil
        }

        /// `filter-query = rel-query / jsonpath-query`: `@` or `$`, then segments.
        private mutating func filterQuery() throws(Failure) -> Query {
            let isAbsolute = scanner.peek == "$"
            scanner.advance()
            return Query(isAbsolute: isAbsolute, segments: try segments())
        }

        /// An operand standing alone as a `test-expr`: a query (an existence test) or a
        /// function whose result is a LogicalType or NodesType (§2.4.3).
        private func test(_ operand: Operand, at start: Int) throws(Failure) -> LogicalExpression {
            switch operand {
            case .query(let query):
                return .exists(query)
            case .function(let call):
                guard call.function.result != .value else {
                    throw failure(
                        "\(call.function.rawValue)() gives a value, which is not a test: compare it, as in "
                            + "\(call.function.rawValue)(@.a) == 1", at: start)
                }
                return .function(call)
            case .literal(let value):
                throw failure(
                    "The literal \(value.serialized()) alone is not a test: compare it with something, as in "
                        + "@.a == \(value.serialized())", at: start)
            }
        }

        /// An operand as a `comparable = literal / singular-query / function-expr`, whose
        /// function must give a ValueType (§2.4.3).
        private func comparable(_ operand: Operand, at start: Int) throws(Failure) -> Comparable {
            switch operand {
            case .literal(let value):
                return .literal(value)
            case .query(let query):
                guard isSingular(query) else {
                    throw failure(
                        "The query at position \(start + 1) can select several nodes, "
                            + "so it cannot be compared: compare a "
                            + "singular query (names and indexes only, as in @.a[0], without blanks inside brackets)",
                        at: start)
                }
                return .query(query)
            case .function(let call):
                guard call.function.result == .value else {
                    throw failure(
                        "\(call.function.rawValue)() gives true or false, which cannot be compared: use it alone as a "
                            + "test, as in [?\(call.function.rawValue)(@.a, 'x')]", at: start)
                }
                return .function(call)
            }
        }

        /// Whether a query is a `singular-query` as written: only names and indexes, and with
        /// the strict syntax no blank inside their brackets (`name-segment = "[" name-selector "]"`).
        private func isSingular(_ query: Query) -> Bool {
            query.isSingular && (syntax == .lenient || !query.segments.contains(where: \.isSpaced))
        }

        // MARK: Functions

        /// `function-expr = function-name "(" S [function-argument *(S "," S function-argument)] S ")"`,
        /// checked against the function's parameters (§2.4.3).
        private mutating func functionExpression() throws(Failure) -> FunctionCall {
            let start = scanner.position
            let name = scanner.take(while: Self.isFunctionNameChar)
            guard scanner.consume("(") else {
                throw failure(
                    "Unknown word \"\(name)\" (expected a query such as @.\(name), a literal or a function call)",
                    at: start)
            }
            guard let function = Function(rawValue: name) else {
                throw failure(
                    "Unknown function \(name)() (the functions are length, count, match, search and value)", at: start)
            }
            let arguments = try nested { (parser: inout Parser) throws(Failure) in
                try parser.functionArguments(of: function)
            }
            guard arguments.count == function.parameters.count else {
                let expected = function.parameters.count
                throw failure(
                    "\(name)() takes \(expected) argument\(expected == 1 ? "" : "s"), not \(arguments.count)", at: start
                )
            }
            for (argument, parameter) in zip(arguments, function.parameters) {
                try check(argument.argument, of: function, against: parameter, at: argument.position)
            }
            return FunctionCall(function: function, arguments: arguments.map(\.argument))
        }

        /// The arguments after `(`, up to and including `)`, each with its position.
        private mutating func functionArguments(of function: Function) throws(Failure) -> [(
            argument: Argument, position: Int
        )] {
            var arguments: [(argument: Argument, position: Int)] = []
            skipBlanks()
            if scanner.consume(")") { return arguments }
            repeat {
                skipBlanks()
                let position = scanner.position
                arguments.append((try functionArgument(), position))
                skipBlanks()
            } while scanner.consume(",")
            guard scanner.consume(")") else {
                throw failure(
                    scanner.isAtEnd
                        ? "Expected ) to close \(function.rawValue)(" : "Expected , or ) in \(function.rawValue)(…)",
                    at: scanner.position)
            }
            return arguments
        }

        /// `function-argument = literal / filter-query / logical-expr / function-expr`: an
        /// operand alone, unless an operator follows it (then the whole logical expression).
        private mutating func functionArgument() throws(Failure) -> Argument {
            let start = scanner.position
            if scanner.peek != "!" && scanner.peek != "(", let operand = try operand() {
                let afterOperand = scanner.position
                skipBlanks()
                let continues =
                    comparisonOperator() != nil || scanner.isLooking(at: "&&") || scanner.isLooking(at: "||")
                scanner.position = continues ? start : afterOperand
                if !continues {
                    switch operand {
                    case .literal(let value): return .literal(value)
                    case .query(let query): return .query(query)
                    case .function(let call): return .function(call)
                    }
                }
            }
            scanner.position = start
            return .logical(try logicalExpression())
        }

        /// Refuses an argument whose type does not fit the parameter (§2.4.3's well-typedness).
        private func check(
            _ argument: Argument, of function: Function, against parameter: ExpressionType, at start: Int
        ) throws(Failure) {
            let name = "\(function.rawValue)()"
            switch (parameter, argument) {
            case (.value, .literal), (.nodes, .query), (.logical, .logical), (.logical, .query):
                return
            case (.value, .query(let query)):
                guard isSingular(query) else {
                    throw failure(
                        "\(name) needs a single value here, and this query can select several nodes: use a singular "
                            + "query (names and indexes only, as in @.a[0])", at: start)
                }
            case (.value, .function(let call)):
                guard call.function.result == .value else {
                    throw failure(
                        "\(name) needs a value here, and \(call.function.rawValue)() gives true or false", at: start)
                }
            case (.value, .logical):
                throw failure(
                    "\(name) needs a value here (a literal, a singular query or a function), not a test", at: start)
            case (.nodes, .function(let call)):
                guard call.function.result == .nodes else {
                    throw failure(
                        "\(name) needs a query here (its nodes, as in \(name.dropLast())@.*)), and "
                            + "\(call.function.rawValue)() gives a "
                            + "\(call.function.result == .value ? "value" : "true or false")",
                        at: start)
                }
            case (.nodes, .literal), (.nodes, .logical):
                throw failure(
                    "\(name) needs a query here (its nodes, as in \(name.dropLast())@.*)), not a literal or a test",
                    at: start)
            case (.logical, .function(let call)):
                guard call.function.result != .value else {
                    throw failure("\(name) needs a test here, and \(call.function.rawValue)() gives a value", at: start)
                }
            case (.logical, .literal):
                throw failure("\(name) needs a test here, not a literal", at: start)
            }
        }

        // MARK: Literals

        /// `string-literal = %x22 *double-quoted %x22 / %x27 *single-quoted %x27`, its escapes
        /// (§2.3.1.1) decoded.
        private mutating func stringLiteral() throws(Failure) -> String {
            let open = scanner.position
            let quote = scanner.peek!
            scanner.advance()
            var text = String.UnicodeScalarView()
            while true {
                guard let next = scanner.peek else {
                    throw failure(
                        "The string opened at position \(open + 1) is not closed (expected \(quote))",
                        at: scanner.position)
                }
                scanner.advance()
                if next == quote { return String(text) }
                if next == "\\" {
                    text.append(try escapedCharacter(in: quote))
                } else if next.value < 0x20 {
                    throw failure(
                        "A control character (U+\(Self.hex(next.value))) must be escaped in a string, "
                            + "as in \\u\(Self.hex(next.value))",
                        at: scanner.position - 1)
                } else {
                    text.append(next)
                }
            }
        }

        /// The character an escape stands for, after its `\`: `escapable` or the string's own
        /// quote.
        private mutating func escapedCharacter(in quote: Unicode.Scalar) throws(Failure) -> Unicode.Scalar {
            let start = scanner.position - 1
            guard let next = scanner.peek else {
                throw failure("Expected an escaped character after \\", at: scanner.position)
            }
            scanner.advance()
            switch next {
            case "b": return "\u{08}"
            case "f": return "\u{0C}"
            case "n": return "\n"
            case "r": return "\r"
            case "t": return "\t"
            case "/", "\\": return next
            case "u": return try unicodeEscape(at: start)
            case quote: return quote
            default:
                throw failure(
                    "\\\(next) is not an escape (the escapes are \\b \\f \\n \\r \\t \\/ \\\\ \\\(quote) and \\uXXXX)",
                    at: start)
            }
        }

        /// `hexchar` after `\u`: a non-surrogate, or a high surrogate followed by `\u` and a low
        /// surrogate.
        private mutating func unicodeEscape(at start: Int) throws(Failure) -> Unicode.Scalar {
            let first = try fourHexDigits(at: start)
            switch first {
            case 0xDC00...0xDFFF:
                throw failure("\\u\(Self.hex(first)) is a low surrogate without a high surrogate before it", at: start)
            case 0xD800...0xDBFF:
                guard scanner.consume("\\u") else {
                    throw failure(
                        "\\u\(Self.hex(first)) is a high surrogate: "
                            + "a \\u escape of a low surrogate (DC00 to DFFF) must follow",
                        at: start)
                }
                let second = try fourHexDigits(at: scanner.position - 2)
                guard (0xDC00...0xDFFF).contains(second) else {
                    throw failure(
                        "\\u\(Self.hex(first)) must be followed by a low surrogate (\\uDC00 to \\uDFFF), "
                            + "not \\u\(Self.hex(second))",
                        at: start)
                }
                return Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))!
            default:
                return Unicode.Scalar(first)!
            }
        }

        /// Four hexadecimal digits (either case) as a number.
        private mutating func fourHexDigits(at start: Int) throws(Failure) -> UInt32 {
            var value: UInt32 = 0
            for _ in 0..<4 {
                guard let next = scanner.peek, let digit = Self.hexDigitValue(next) else {
                    throw failure("\\u must be followed by four hexadecimal digits", at: start)
                }
                scanner.advance()
                value = value << 4 + digit
            }
            return value
        }

        /// `number = (int / "-0") [ frac ] [ exp ]`, kept as written.
        private mutating func number() throws(Failure) -> JSONValue {
            let start = scanner.position
            _ = scanner.consume("-")
            let integer = scanner.take(while: Self.isDigit)
            guard !integer.isEmpty else { throw failure("Expected a digit", at: scanner.position) }
            guard integer == "0" || !integer.hasPrefix("0") else {
                throw failure("A number cannot start with 0 followed by digits", at: start)
            }
            if scanner.consume(".") {
                guard scanner.skip(while: Self.isDigit) > 0 else {
                    throw failure("Expected a digit after the decimal point", at: scanner.position)
                }
            }
            if scanner.consume("e") || scanner.consume("E") {
                if !scanner.consume("-") { _ = scanner.consume("+") }
                guard scanner.skip(while: Self.isDigit) > 0 else {
                    throw failure("Expected the exponent's digits", at: scanner.position)
                }
            }
            return .number(scanner.text(from: start))
        }

        // MARK: Helpers

        /// Runs `body` one level deeper, refusing more than `maximumNesting` levels.
        private mutating func nested<T>(_ body: (inout Parser) throws(Failure) -> T) throws(Failure) -> T {
            guard nesting < JSONPath.maximumNesting else {
                throw failure(
                    "Filters, parentheses and functions nest deeper than \(JSONPath.maximumNesting) levels; "
                        + "write a simpler expression", at: scanner.position)
            }
            nesting += 1
            defer { nesting -= 1 }
            return try body(&self)
        }

        /// Reads `text` after blanks, or reads nothing when it does not come next.
        private mutating func consumeAfterBlanks(_ text: String) -> Bool {
            let start = scanner.position
            skipBlanks()
            if scanner.consume(text) { return true }
            scanner.position = start
            return false
        }

        /// `S = *B`: skips spaces, tabs, line feeds and carriage returns.
        private mutating func skipBlanks() {
            scanner.skip(while: Self.isBlank)
        }

        /// A failure at `position` (0-based), named as "… at position N of EXPRESSION".
        private func failure(_ message: String, at position: Int) -> Failure {
            Failure(description: "\(message) at position \(position + 1) of \(expression)", position: position + 1)
        }

        /// A failure at the current position for something not expected there.
        private func unexpected(expecting expected: String?) -> Failure {
            let found = scanner.peek.map { "\"\(Self.visible($0))\"" } ?? "the end"
            guard let expected else { return failure("Unexpected \(found)", at: scanner.position) }
            return failure("Expected \(expected), not \(found),", at: scanner.position)
        }

        /// A scalar as a message shows it: blanks and controls by their escape.
        private static func visible(_ scalar: Unicode.Scalar) -> String {
            switch scalar {
            case "\n": "\\n"
            case "\r": "\\r"
            case "\t": "\\t"
            case _ where scalar.value < 0x20: "\\u\(hex(scalar.value))"
            default: String(scalar)
            }
        }

        /// `B = %x20 / %x09 / %x0A / %x0D`.
        static func isBlank(_ scalar: Unicode.Scalar) -> Bool {
            scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r"
        }

        /// `DIGIT = %x30-39`.
        static func isDigit(_ scalar: Unicode.Scalar) -> Bool {
            ("0"..."9").contains(scalar)
        }

        /// `name-first = ALPHA / "_" / %x80-D7FF / %xE000-10FFFF` (a Swift scalar is never a
        /// surrogate).
        static func isNameFirst(_ scalar: Unicode.Scalar) -> Bool {
            ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || scalar == "_" || scalar.value >= 0x80
        }

        /// `LCALPHA = %x61-7A`.
        static func isLowercaseLetter(_ scalar: Unicode.Scalar) -> Bool {
            ("a"..."z").contains(scalar)
        }

        /// `function-name-char = function-name-first / "_" / DIGIT`.
        static func isFunctionNameChar(_ scalar: Unicode.Scalar) -> Bool {
            isLowercaseLetter(scalar) || scalar == "_" || isDigit(scalar)
        }

        /// `HEXDIG`, either case, as its value.
        static func hexDigitValue(_ scalar: Unicode.Scalar) -> UInt32? {
            switch scalar {
            case "0"..."9": scalar.value - 0x30
            case "a"..."f": scalar.value - 0x61 + 10
            case "A"..."F": scalar.value - 0x41 + 10
            default: nil
            }
        }

        /// Four uppercase hexadecimal digits.
        static func hex(_ value: UInt32) -> String {
            let digits = String(value, radix: 16, uppercase: true)
            return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
        }
    }
}
