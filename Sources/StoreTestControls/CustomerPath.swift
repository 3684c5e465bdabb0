import StoreWire

/// `{name}`: a customer's name.
public struct CustomerPath: PathOnlyParameters, Equatable {
    public var name: String
    public init(name: String) { self.name = name }
    public init(pathValues: [String]) { self.init(name: pathValues[0]) }
    public var pathValues: [String] { [name] }
}
