/// A usage error: the command line is wrong. Exit 64, with the message and a pointer to --help.
struct UsageError: Error, CustomStringConvertible {
    var message: String
    var command: String?
    init(_ message: String, command: String? = nil) {
        self.message = message
        self.command = command
    }
    var description: String { message }
}

/// The words of a command line, taken apart by hand (no argument-parser package can be fetched).
struct Arguments {
    private(set) var tokens: [String]
    let command: String

    init(_ tokens: [String], command: String) {
        self.tokens = tokens
        self.command = command
    }

    /// Removes `--name` and says whether it was there.
    mutating func flag(_ name: String) -> Bool {
        guard let index = tokens.firstIndex(of: name) else { return false }
        tokens.remove(at: index)
        return true
    }

    /// Removes `--name VALUE` (or `--name=VALUE`) and returns VALUE.
    mutating func option(_ name: String) throws -> String? {
        if let index = tokens.firstIndex(where: { $0.hasPrefix(name + "=") }) {
            let value = String(tokens[index].dropFirst(name.count + 1))
            tokens.remove(at: index)
            return value
        }
        guard let index = tokens.firstIndex(of: name) else { return nil }
        guard index + 1 < tokens.count, !tokens[index + 1].hasPrefix("--") || tokens[index + 1] == "-" else {
            throw UsageError("\(name) needs a value", command: command)
        }
        let value = tokens[index + 1]
        tokens.removeSubrange(index...(index + 1))
        return value
    }

    /// Removes `--name N` and reads N as a whole number.
    mutating func integer(_ name: String) throws -> Int64? {
        guard let text = try option(name) else { return nil }
        guard let value = Int64(text) else {
            throw UsageError("\(name) must be a whole number, not \"\(text)\"", command: command)
        }
        return value
    }

    /// Removes and returns the next word that is not an option.
    mutating func positional(_ what: String? = nil) throws -> String? {
        guard let index = tokens.firstIndex(where: { !$0.hasPrefix("--") || $0 == "-" }) else {
            if let what { throw UsageError("missing \(what)", command: command) }
            return nil
        }
        return tokens.remove(at: index)
    }

    /// Every remaining word that is not an option.
    mutating func remainingPositionals() -> [String] {
        let words = tokens.filter { !$0.hasPrefix("--") || $0 == "-" }
        tokens.removeAll { !$0.hasPrefix("--") || $0 == "-" }
        return words
    }

    /// Fails on anything left over.
    func finish() throws {
        if let first = tokens.first {
            throw UsageError(
                first.hasPrefix("--") ? "unknown option \(first)" : "unexpected argument \"\(first)\"", command: command
            )
        }
    }
}

/// Splits a line into words: spaces separate, double or single quotes group, a backslash escapes.
func splitWords(_ line: String) throws -> [String] {
    var words: [String] = []
    var current = ""
    var inWord = false
    var quote: Character?
    var escaping = false
    for character in line {
        if escaping {
            current.append(character)
            escaping = false
            continue
        }
        if character == "\\" && quote != "'" {
            escaping = true
            inWord = true
            continue
        }
        if let open = quote {
            if character == open { quote = nil } else { current.append(character) }
            continue
        }
        if character == "\"" || character == "'" {
            quote = character
            inWord = true
        } else if character.isWhitespace {
            if inWord { words.append(current) }
            current = ""
            inWord = false
        } else {
            current.append(character)
            inWord = true
        }
    }
    guard quote == nil else { throw UsageError("a quote is not closed") }
    if inWord { words.append(current) }
    return words
}
