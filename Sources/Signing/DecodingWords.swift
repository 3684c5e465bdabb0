/// What a `DecodingError` (or any error met reading JSON) says, in plain words: the member at fault, never Swift's description of the error (coding
/// paths, `NSCocoaErrorDomain` codes).
public enum DecodingWords {
    public static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "it cannot be read" }
        switch error {
        case .keyNotFound(let key, let context):
            return "\(path(context.codingPath + [key])) is missing"
        case .valueNotFound(_, let context):
            return "\(path(context.codingPath)) is null"
        case .typeMismatch(_, let context):
            return "\(path(context.codingPath)) is not of the right type"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? "it is not JSON" : "\(path(context.codingPath)) is not valid"
        @unknown default:
            return "it cannot be read"
        }
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        keys.isEmpty
            ? "the value"
            : "\"" + keys.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".") + "\""
    }
}
