import OptionParsing
import StoreTestControls

/// `mockstore control customer add NAME [--storefront S]`, `customer list`, `customer remove NAME`: the store's
/// customers (Apple's sandbox testers). The `mockstore control` commands of one area (see ``ControlCommands``).
enum CustomerControls {
    struct Customer: ControlCommand {
        /// What `customer` does, by its first word.
        enum Action: String, ChoiceWords {
            case add, list, remove
        }

        static let storefront = Option.string(
            .storefront, "S", help: "the new customer's storefront (default: the catalogue's)")
        static let action = Argument.choice(.addOrListOrRemove, Action.self)
        static let name = Argument.optional(.name, help: "the customer's name")
        static let configuration = CommandSpec(
            "customer",
            summary: "the store's customers (Apple's sandbox testers), each with their own purchases, subscriptions, "
                + "eligibility and storefront: `customer add NAME [--storefront S]`, `customer list`, `customer "
                + "remove NAME` (with everything that is theirs; never the default customer). The device API acts "
                + "for the one its X-Mock-Customer: NAME header names",
            options: [storefront.spec], positionals: [action.spec, name.spec])

        let action: Action
        let name: String?
        let storefront: String?

        init(_ arguments: ParsedArguments) throws(UsageError) {
            action = try arguments.value(of: Self.action)
            name = try arguments.value(of: Self.name)
            storefront = try arguments.value(of: Self.storefront)
        }

        func validate() throws(UsageError) {
            switch action {
            case .list:
                guard name == nil else { throw UsageError("customer list takes no name") }
            case .add, .remove:
                try ControlWords.checkCustomerName(name, option: nil)
                guard name != nil else { throw UsageError("customer \(action.rawValue) needs a NAME") }
                if action == .add, let storefront { try SettingsControls.checkStorefront(storefront) }
            }
        }

        func plan() -> ControlPlan {
            switch action {
            case .list:
                return ControlPlan(request: ControlRequest(TestControls.customers))
            case .remove:
                return ControlPlan(request: ControlRequest(TestControls.removeCustomer, CustomerPath(name: name ?? "")))
            case .add:
                let body = TestCustomerRequest(name: name ?? "", storefront: storefront)
                return ControlPlan(request: ControlRequest(TestControls.addCustomer, body: body))
            }
        }
    }
}
