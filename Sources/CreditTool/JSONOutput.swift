import Foundation

/// Every JSON the `credit` command prints goes through this one encoder: keys sorted, slashes as they are, one
/// line. Each output is a `Codable` type of its command's (never a dictionary of anything).
enum JSONOutput {
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// The value as one line of JSON.
    static func text(_ value: some Encodable) throws -> String {
        String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}

/// Prints `value` as one line of JSON on standard output.
func printJSON(_ value: some Encodable) throws {
    print(try JSONOutput.text(value))
}
