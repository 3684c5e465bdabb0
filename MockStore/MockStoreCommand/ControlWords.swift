import OptionParsing
import StoreWire

/// The words several `mockstore control` commands take, each declared once with its check: a transaction id, a
/// subscription, on or off, a customer's name.
enum ControlWords {
    /// The `ID` word of a control about one transaction.
    static let transactionId = Argument.word(.id, help: "a transaction id")

    /// `id` if it is a transaction id (digits); a usage error otherwise.
    static func checkTransactionId(_ id: String) throws(UsageError) {
        guard !id.isEmpty, id.allSatisfy(\.isNumber) else {
            throw UsageError("\(quoted(id)) is not a transaction id (digits, e.g. 2000000000000001)")
        }
    }

    /// `reference` if it can name a subscription (a transaction id or a product id); a usage error otherwise.
    static func checkSubscription(_ reference: String) throws(UsageError) {
        guard !reference.isEmpty, !reference.contains("/") else {
            throw UsageError("\(quoted(reference)) is not a transaction id or product id")
        }
    }

    /// A customer's name as given (`--customer NAME`, `customer add NAME`), checked: one that cannot be a name is a
    /// usage error, said for `option` when it came from one.
    static func checkCustomerName(_ name: String?, option: OptionName?) throws(UsageError) {
        guard let name, !MockCustomerHeader.isValidName(name) else { return }
        let rule = "a customer's name (" + MockCustomerHeader.nameRule + ")"
        if let option { throw .invalidValue(option.text, name, isNot: rule) }
        throw UsageError("\(quoted(name)) is not \(rule)")
    }
}

/// The words a switch takes: `on` or `off`, and `true` or `false` as well.
enum OnOff: String, ChoiceWords {
    case on, off
    case `true`, `false`

    /// Whether it turns the setting on.
    var isOn: Bool { self == .on || self == .true }

    /// The `on|off` word, declared.
    static let word = Argument.choice(.onOrOff, OnOff.self)
}
