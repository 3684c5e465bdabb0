import OptionParsing
import StoreWire

/// The words `mockstore control` commands take, read and checked: a transaction id, a subscription, on or off, a
/// customer's name.
extension ParsedArguments {
    /// The `ID` word: a transaction id, digits.
    func transactionId() throws(UsageError) -> String {
        let id = positional(.id) ?? ""
        guard !id.isEmpty, id.allSatisfy(\.isNumber) else {
            throw UsageError("\(quoted(id)) is not a transaction id (digits, e.g. 2000000000000001)", command: path)
        }
        return id
    }

    /// The `SUBSCRIPTION` word: a transaction id or a product id.
    func subscriptionReference() throws(UsageError) -> String {
        let reference = positional(.subscription) ?? ""
        guard !reference.isEmpty, !reference.contains("/") else {
            throw UsageError("\(quoted(reference)) is not a transaction id or product id", command: path)
        }
        return reference
    }

    /// The `on|off` word (the parser took only `on`, `off`, `true` or `false`): whether it is on.
    var isOn: Bool { OnOff.isOn(positional(.onOrOff)) }

    /// A customer's name as given (`--customer NAME`, `customer add NAME`), checked: one that cannot be a name is a
    /// usage error, said for `option` when it came from one.
    func customerName(_ name: String?, option: OptionName?) throws(UsageError) -> String? {
        guard let name, !MockCustomerHeader.isValidName(name) else { return name }
        let rule = "a customer's name (" + MockCustomerHeader.nameRule + ")"
        if let option { throw .invalidValue(option.text, name, isNot: rule, command: path) }
        throw UsageError("\(quoted(name)) is not \(rule)", command: path)
    }
}

/// The words a switch takes: `on` or `off`, and `true` or `false` as well.
enum OnOff {
    static let words = ["on", "off", "true", "false"]

    /// Whether `word` turns it on.
    static func isOn(_ word: String?) -> Bool { word == "on" || word == "true" }

    /// The `on|off` word, declared.
    static let positional = PositionalSpec(.onOrOff, choices: words)
}
