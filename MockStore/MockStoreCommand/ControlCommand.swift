import OptionParsing

/// One `mockstore control` command: its declaration beside what it sends. ``ControlCommands/all`` holds every one,
/// so no command is declared without its request, and none is run by a name that is not declared (the shape of
/// `credit`'s `CreditCommands`).
struct ControlCommand: Sendable {
    /// What a command sends, and what is done with the answer, given its parsed command line.
    typealias Plan = @Sendable (ParsedArguments) throws(UsageError) -> ControlPlan
    /// The request of a command whose answer is printed as JSON.
    typealias Request = @Sendable (ParsedArguments) throws(UsageError) -> ControlRequest

    /// The command's words, options and help.
    let spec: CommandSpec
    let plan: Plan
    /// Whether `--customer` applies. `wait-notification` waits on the store's notifications, every customer's.
    let actsForCustomer: Bool

    /// A command that sends what `plan` says. (No default for `actsForCustomer`: a trailing closure after the spec
    /// alone is always a ``Request``.)
    init(_ spec: CommandSpec, actsForCustomer: Bool, plan: @escaping Plan) {
        self.spec = spec
        self.plan = plan
        self.actsForCustomer = actsForCustomer
    }

    /// A command that sends what `request` builds and prints the JSON answer.
    init(_ spec: CommandSpec, request: @escaping Request) {
        self.init(spec, actsForCustomer: true) { args throws(UsageError) in ControlPlan(request: try request(args)) }
    }

    /// A command that always sends `request` (it takes no words) and prints the JSON answer.
    init(_ spec: CommandSpec, sends request: ControlRequest) {
        self.init(spec, actsForCustomer: true) { _ throws(UsageError) in ControlPlan(request: request) }
    }
}

/// What one control sends, and what is done with the store's answer.
struct ControlPlan: Sendable {
    var request: ControlRequest
    var output: ControlInvocation.Output = .json
    /// A file the body is made from when the control runs.
    var input: ControlInvocation.Input?
}
