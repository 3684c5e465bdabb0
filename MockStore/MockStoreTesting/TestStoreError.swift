/// What went wrong with a test store, in words a test failure can show as they are.
public enum TestStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No `mockstore` binary was found; where it was looked for.
    case binaryNotFound(lookedIn: [String])
    /// No `mockstore` binary was found and building it in the checkout failed: the command that builds it, and why
    /// it failed.
    case binaryNotBuilt(command: String, why: String)
    /// The process ended, or said nothing, before it listened: what it printed.
    case didNotStart(output: String)
    /// A control or request the store refused: the request, the status and the store's `errorMessage`.
    case refused(request: String, status: Int, message: String)
    /// The store answered something that is not what the request answers.
    case unreadableAnswer(request: String, why: String)
    /// A wait ended before enough arrived: what was waited for, and every notification type that did arrive.
    case timedOut(waitingFor: String, arrived: [String: Int])

    public var description: String {
        switch self {
        case .binaryNotFound(let places):
            return "no mockstore binary: looked in \(places.joined(separator: ", ")). Build it (`swift build "
                + "--product mockstore` in the VoiceDebriefCredit checkout) or set MOCKSTORE_BINARY to its path"
        case .binaryNotBuilt(let command, let why):
            return "no mockstore binary, and building it failed: \(why)\nBuild it yourself (`\(command)`) or set "
                + "MOCKSTORE_BINARY to its path"
        case .didNotStart(let output):
            return "mockstore did not start: \(output.isEmpty ? "it printed nothing" : output)"
        case .refused(let request, let status, let message):
            return "the mock store refused \(request) (\(status)): \(message)"
        case .unreadableAnswer(let request, let why):
            return "the mock store's answer to \(request) cannot be read: \(why)"
        case .timedOut(let wanted, let arrived):
            let seen =
                arrived.isEmpty
                ? "none arrived" : arrived.keys.sorted().map { "\(arrived[$0]!) \($0)" }.joined(separator: ", ")
            return "timed out waiting for \(wanted); what arrived: \(seen)"
        }
    }
}
