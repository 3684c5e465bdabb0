import MockStoreSQLite
import StoreKitCatalogue
import StoreTestControls
import StoreWire

/// The settings part: the settings in force (the test controls' over the catalogue's, kept in the database) and
/// simulated failures, with their test controls.
public struct StoreSettings: StorePart {
    let configuration: MockStore.Configuration
    let database: GroupCommit<TransactionStore>

    func askToBuyEnabled(_ database: TransactionStore) throws -> Bool {
        if let stored = try database.setting(MockStore.SettingKey.askToBuyEnabled) {
            return stored == "true"
        }
        return configuration.catalogue.settings.askToBuyEnabled ?? false
    }

    /// Whether `request` waits for Ask to Buy: the store's setting, or the purchase's own
    /// `simulatesAskToBuyInSandbox(true)`, which, as Apple's, counts in the sandbox only.
    func askToBuy(for request: PurchaseRequestBody, _ database: TransactionStore) throws -> Bool {
        if request.simulatesAskToBuy == true && configuration.environment == .sandbox { return true }
        return try askToBuyEnabled(database)
    }

    /// Xcode keeps this in its test session, not in the `.storekit` file: off unless a test control turns it on.
    func interruptedPurchasesEnabled(_ database: TransactionStore) throws -> Bool {
        try database.setting(MockStore.SettingKey.interruptedPurchasesEnabled) == "true"
    }

    func storefront(_ database: TransactionStore) throws -> Storefront {
        if let code = try database.setting(database.actingFor.storefrontSettingKey),
            let storefront = Storefront.named(code)
        {
            return storefront
        }
        return configuration.catalogue.storefront
    }

    func locale(_ database: TransactionStore) throws -> String {
        try database.setting(MockStore.SettingKey.locale) ?? configuration.catalogue.locale
    }

    /// The failure in force for `api`; a `once` failure set by a control is used up by this call.
    func takeFailure(_ api: FailableAPI, _ database: TransactionStore) throws -> StoreKitFailure? {
        try takeSimulatedFailure(api, database)?.failure
    }

    /// The failure in force for `api` with what set it, to throw (``MockStoreError/simulated(_:)``); a `once`
    /// failure set by a control is used up by this call.
    func takeSimulatedFailure(_ api: FailableAPI, _ database: TransactionStore) throws
        -> MockStoreError.SimulatedFailure?
    {
        guard let (failure, once, source) = try failureInForce(api, database) else { return nil }
        if once {
            try database.setFailure(for: api.rawValue, error: nil, once: false)
        }
        return MockStoreError.SimulatedFailure(failure: failure, api: api, source: source)
    }

    /// The failure set for `api`: by a test control (which overrides the catalogue, a cleared one included), else
    /// by the catalogue's `_storeKitErrors` (or `_failTransactionsEnabled`, for purchases: `SKError.Code.unknown`).
    func failureInForce(_ api: FailableAPI, _ database: TransactionStore) throws -> (
        StoreKitFailure, once: Bool, source: SimulatedFailureSource
    )? {
        if let set = try database.failure(for: api.rawValue) {
            guard let error = set.error, let failure = StoreKitFailure.parse(error, domains: api.allowedDomains) else {
                return nil
            }
            return (failure, set.once, .testControl)
        }
        let settings = configuration.catalogue.settings
        if let entry = settings.storeKitErrors.first(where: { $0.enabled && $0.name == api.catalogueName }),
            let failure = StoreKitFailure.fromCatalogue(api: api, index: entry.errorIndex, type: entry.errorType)
        {
            return (failure, false, .catalogueStoreKitErrors)
        }
        if api == .purchase, settings.failTransactionsEnabled == true {
            return (StoreKitFailure(domain: .skError, name: "unknown"), false, .catalogueFailTransactions)
        }
        return nil
    }

    /// What a new subscription is bought with: the storefront in force and the purchase's token.
    func purchaseContext(appAccountToken: String?, _ database: TransactionStore) throws
        -> SubscriptionPurchaseContext
    {
        let storefront = try storefront(database)
        return SubscriptionPurchaseContext(
            currency: storefront.currency, storefront: storefront.code, storefrontId: storefront.storefrontId,
            appAccountToken: appAccountToken)
    }

    /// The storefront called `code`, or a 400 that says what a storefront is.
    static func knownStorefront(_ code: String) throws(MockStoreError) -> Storefront {
        guard let storefront = Storefront.named(code) else {
            throw .invalid(.unknownStorefront(code))
        }
        return storefront
    }

    // MARK: Controls

    /// What the store runs with now.
    public func current() throws(MockStoreError) -> TestSettingsBody {
        try withDatabase { try settingsBody($0) }
    }

    /// Changes the settings given; the others stay.
    ///
    /// - Throws: ``MockStoreError`` 4000000 for a storefront the store does not know, or a locale that is not an
    ///   identifier or that the catalogue has no localization of.
    public func updateSettings(_ update: TestSettingsUpdate) throws(MockStoreError) -> TestSettingsBody {
        var storefrontCode: String?
        if let code = update.storefront {
            storefrontCode = try StoreSettings.knownStorefront(code).code
        }
        if let locale = update.locale {
            guard LocaleIdentifier.isWellFormed(locale) else {
                throw .invalid(.invalidLocale(locale))
            }
            let catalogue = configuration.catalogue
            guard catalogue.canServe(locale: locale) else {
                throw .invalid(.localeNotServed(locale, served: catalogue.servedLocales))
            }
        }
        return try withDatabase { database in
            if let value = update.askToBuyEnabled {
                try database.setSetting(MockStore.SettingKey.askToBuyEnabled, to: value ? "true" : "false")
            }
            if let value = update.interruptedPurchasesEnabled {
                try database.setSetting(MockStore.SettingKey.interruptedPurchasesEnabled, to: value ? "true" : "false")
            }
            if let storefrontCode {
                try database.setSetting(database.actingFor.storefrontSettingKey, to: storefrontCode)
            }
            if let locale = update.locale {
                try database.setSetting(MockStore.SettingKey.locale, to: locale)
            }
            return try settingsBody(database)
        }
    }

    /// The storefront the customer acted for is in now (`Storefront.current`), after a simulated `storefront`
    /// failure is checked.
    ///
    /// - Throws: ``MockStoreError``: a simulated `storefront` failure, a failure of the store.
    public func currentStorefront() throws(MockStoreError) -> StorefrontBody {
        try withDatabase { database in
            if let simulated = try takeSimulatedFailure(.storefront, database) {
                throw MockStoreError.simulated(simulated)
            }
            let storefront = try storefront(database)
            return StorefrontBody(
                countryCode: storefront.code, id: storefront.storefrontId, currency: storefront.currency)
        }
    }

    /// Every API's failure in force.
    public func failures() throws(MockStoreError) -> TestFailuresBody {
        try withDatabase { TestFailuresBody(failures: try failureList($0)) }
    }

    /// Makes `api` fail with `error` (as StoreKit names it), on its next call only or until cleared.
    ///
    /// - Throws: ``MockStoreError`` 4000000 for an unknown API, or an error that API cannot fail with.
    public func setFailure(_ request: TestFailureRequest) throws(MockStoreError) -> TestFailuresBody {
        guard let api = FailableAPI(named: request.api.rawValue) else {
            throw .invalid(.unknownAPI(request.api.rawValue))
        }
        guard let failure = api.failure(named: request.error.rawValue) else {
            throw .invalid(.failureNotAllowed(api, error: request.error.rawValue))
        }
        return try withDatabase { database in
            try database.setFailure(for: api.rawValue, error: failure.description, once: request.once ?? false)
            return TestFailuresBody(failures: try failureList(database))
        }
    }

    /// Clears the failure of `api` (every API when `nil`), the catalogue's included, until the next reset.
    public func clearFailure(api name: String?) throws(MockStoreError) -> TestFailuresBody {
        var apis = FailableAPI.knownCases
        if let name {
            guard let api = FailableAPI(named: name) else { throw .invalid(.unknownAPI(name)) }
            apis = [api]
        }
        return try withDatabase { database in
            for api in apis {
                try database.setFailure(for: api.rawValue, error: nil, once: false)
            }
            return TestFailuresBody(failures: try failureList(database))
        }
    }

    private func failureList(_ database: TransactionStore) throws -> [TestFailure] {
        try FailableAPI.knownCases.compactMap { api in
            try failureInForce(api, database).map {
                TestFailure(api: api, error: $0.0.wireName, once: $0.once, source: $0.source.listedAs)
            }
        }
    }

    private func settingsBody(_ database: TransactionStore) throws -> TestSettingsBody {
        let storefront = try storefront(database)
        return TestSettingsBody(
            askToBuyEnabled: try askToBuyEnabled(database),
            interruptedPurchasesEnabled: try interruptedPurchasesEnabled(database), storefront: storefront.code,
            currency: storefront.currency, locale: try locale(database), failures: try failureList(database))
    }
}
