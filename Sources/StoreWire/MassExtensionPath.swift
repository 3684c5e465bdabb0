/// `{productId}/{requestIdentifier}`: a mass renewal-date extension, by its product and the caller's request id.
public struct MassExtensionPath: PathOnlyParameters, Equatable {
    public var productId: String
    public var requestIdentifier: String
    public init(productId: String, requestIdentifier: String) {
        self.productId = productId
        self.requestIdentifier = requestIdentifier
    }
    public init(pathValues: [String]) { self.init(productId: pathValues[0], requestIdentifier: pathValues[1]) }
    public var pathValues: [String] { [productId, requestIdentifier] }
}
