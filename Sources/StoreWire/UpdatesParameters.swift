/// `?after=CURSOR`: the updates feed from a cursor an earlier answer gave (none: from the start).
public struct UpdatesParameters: QueryOnlyParameters, Equatable {
    public var after: String?
    public init(after: String?) { self.after = after }
    public init(pathValues: [String], query: (String) -> [String]) { self.init(after: query("after").first) }
    public var queryItems: [(name: String, value: String)] { after.map { [("after", $0)] } ?? [] }
    public static let queryNames = ["after"]
}
