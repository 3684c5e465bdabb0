import StoreWire

/// `{api}`: a StoreKit API a test can make fail (`purchase`, `loadProducts`, …).
public struct FailableAPIPath: PathOnlyParameters, Equatable {
    public var api: String
    public init(api: String) { self.api = api }
    public init(pathValues: [String]) { self.init(api: pathValues[0]) }
    public var pathValues: [String] { [api] }
}
