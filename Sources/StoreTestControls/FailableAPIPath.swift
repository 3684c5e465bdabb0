import StoreWire

/// `{api}`: a StoreKit API a test can make fail (`purchase`, `loadProducts`, …); one the store does not know is
/// kept as sent, for the store to refuse by name.
public struct FailableAPIPath: PathOnlyParameters, Equatable {
    public var api: StoreKitAPI
    public init(api: StoreKitAPI) { self.api = api }
    public init(pathValues: [String]) { self.init(api: StoreKitAPI(rawValue: pathValues[0])) }
    public var pathValues: [String] { [api.rawValue] }
}
