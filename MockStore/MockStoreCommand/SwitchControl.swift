import OptionParsing

/// A control that turns one setting on or off (`ask-to-buy on|off`, `grace-period on|off`): its name, summary and
/// the request for each position are all it declares.
protocol SwitchControl: ControlCommand {
    static var name: String { get }
    static var summary: String { get }
    /// The request that turns the setting on (`true`) or off.
    static func request(_ on: Bool) -> ControlRequest
    var setting: OnOff { get }
    init(setting: OnOff)
}

extension SwitchControl {
    static var configuration: CommandSpec { CommandSpec(name, summary: summary, positionals: [OnOff.word.spec]) }

    init(_ arguments: ParsedArguments) throws(UsageError) { self.init(setting: try arguments.value(of: OnOff.word)) }

    func plan() -> ControlPlan { ControlPlan(request: Self.request(setting.isOn)) }
}
