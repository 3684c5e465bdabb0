import OptionParsing

/// A control that takes no words and always sends the same request (`reset`, `settings`, `billing`): its name,
/// summary and request are all it declares.
protocol FixedControl: ControlCommand {
    static var name: String { get }
    static var summary: String { get }
    static var request: ControlRequest { get }
    init()
}

extension FixedControl {
    static var configuration: CommandSpec { CommandSpec(name, summary: summary) }
    init(_ arguments: ParsedArguments) { self.init() }
    func plan() -> ControlPlan { ControlPlan(request: Self.request) }
}
