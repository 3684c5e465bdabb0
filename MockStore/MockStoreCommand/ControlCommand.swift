import OptionParsing

/// One `mockstore control` command as a type: its declaration and typed values (``ParsableCommand``), and what it
/// sends (``plan()``), which ``ControlInvocation/run(timeout:)`` runs against the store. ``ControlCommands/all``
/// lists every one, so none is run by a name that is not declared (the shape of `credit`'s commands).
protocol ControlCommand: ParsableCommand {
    /// Whether `--customer` applies. `wait-notification` waits on the store's notifications, every customer's.
    static var actsForCustomer: Bool { get }

    /// What the command sends, and what is done with the store's answer.
    func plan() -> ControlPlan
}

extension ControlCommand {
    static var actsForCustomer: Bool { true }
}

/// What one control sends, and what is done with the store's answer.
struct ControlPlan: Sendable {
    var request: ControlRequest
    var output: ControlInvocation.Output = .json
    /// A file the body is made from when the control runs.
    var input: ControlInvocation.Input?
}
