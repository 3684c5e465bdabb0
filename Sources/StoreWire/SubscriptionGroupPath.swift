/// `{groupId}`: a subscription group's identifier.
public struct SubscriptionGroupPath: PathOnlyParameters, Equatable {
    public var groupId: String
    public init(groupId: String) { self.groupId = groupId }
    public init(pathValues: [String]) { self.init(groupId: pathValues[0]) }
    public var pathValues: [String] { [groupId] }
}
