/// `{token}`: the test notification's token, from Request a Test Notification.
public struct TestNotificationPath: PathOnlyParameters, Equatable {
    public var token: String
    public init(token: String) { self.token = token }
    public init(pathValues: [String]) { self.init(token: pathValues[0]) }
    public var pathValues: [String] { [token] }
}
