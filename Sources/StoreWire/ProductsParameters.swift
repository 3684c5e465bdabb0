/// `?ids=A,B`: the products asked for, by id.
public struct ProductsParameters: QueryOnlyParameters, Equatable {
    /// The ids asked for. The query sends them joined by commas in one `ids` value; read back, each `ids` value
    /// the request gave is one entry (`ids=A,B` and `ids=A&ids=B` both ask for A and B), which the store splits at
    /// its commas.
    public var ids: [String]
    public init(ids: [String]) { self.ids = ids }
    public init(pathValues: [String], query: (String) -> [String]) { self.init(ids: query("ids")) }
    public var queryItems: [(name: String, value: String)] { [("ids", ids.joined(separator: ","))] }
    public static let queryNames = ["ids"]
}
