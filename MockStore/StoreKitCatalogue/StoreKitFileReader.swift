import Foundation

/// Turns `.storekit` JSON into a ``StoreKitConfiguration``, with errors that name the place in the file.
///
/// Two passes: ``JSONSyntax`` first, which says where the JSON syntax breaks (a byte offset, turned into a line and
/// column); then `JSONDecoder` on the file's shape, whose coding path names the field that is missing or of the
/// wrong type. The checks that JSON types cannot express follow.
public struct StoreKitFileReader {
    let source: String

    func read(_ data: Data) throws(CatalogueError) -> StoreKitConfiguration {
        try checkSyntax(data)
        let file: StoreKitFile
        do {
            file = try JSONDecoder().decode(StoreKitFile.self, from: data)
        } catch let error as DecodingError {
            throw describe(error)
        } catch {
            throw CatalogueError(file: source, problem: "cannot be decoded: \(error)")
        }
        return try check(file)
    }

    // MARK: Syntax

    private func checkSyntax(_ data: Data) throws(CatalogueError) {
        guard !data.isEmpty else {
            throw CatalogueError(
                file: source, problem: "the file is empty (a StoreKit configuration JSON object was expected)")
        }
        switch JSONSyntax.check(Array(data)) {
        case .failure(let broken):
            throw CatalogueError(
                file: source, location: Self.lineAndColumn(of: broken.offset, in: data),
                problem: "not valid JSON (\(broken.problem))")
        case .success(.other):
            throw CatalogueError(file: source, problem: "the top level is not a JSON object")
        case .success(.object):
            return
        }
    }

    /// `line L, column C` of the byte at `offset` (columns count characters, not UTF-8 bytes).
    static func lineAndColumn(of offset: Int, in data: Data) -> String {
        var line = 1
        var column = 1
        for byte in data.prefix(offset) {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {  // count characters, not UTF-8 continuation bytes
                column += 1
            }
        }
        return "line \(line), column \(column)"
    }

    // MARK: Shape

    private func describe(_ error: DecodingError) -> CatalogueError {
        switch error {
        case .keyNotFound(let key, let context):
            return CatalogueError(
                file: source, location: Self.path(context.codingPath), problem: "missing key \"\(key.stringValue)\"")
        case .typeMismatch(let type, let context):
            return CatalogueError(
                file: source, location: Self.path(context.codingPath),
                problem: "expected \(Self.jsonName(of: type)) (\(context.debugDescription))")
        case .valueNotFound(let type, let context):
            return CatalogueError(
                file: source, location: Self.path(context.codingPath),
                problem: "expected \(Self.jsonName(of: type)), found null")
        case .dataCorrupted(let context):
            return CatalogueError(
                file: source, location: Self.path(context.codingPath), problem: context.debugDescription)
        @unknown default:
            return CatalogueError(file: source, problem: "cannot be decoded: \(error)")
        }
    }

    /// A coding path as the reader names places in a file (and the store fields of a JSON body):
    /// `products[1].localizations[0].locale`.
    public static func path(_ codingPath: [any CodingKey]) -> String {
        var text = ""
        for key in codingPath {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
        return text
    }

    private static func jsonName(of type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "true or false"
        case is Int.Type, is Double.Type: "a number"
        case is [Any].Type: "an array"
        default: "an object"
        }
    }

    // MARK: Meaning

    private func check(_ file: StoreKitFile) throws(CatalogueError) -> StoreKitConfiguration {
        let version = StoreKitConfiguration.Version(major: file.version.major, minor: file.version.minor)
        guard StoreKitConfiguration.supportedMajorVersions.contains(version.major) else {
            throw CatalogueError(
                file: source, location: "version",
                problem: "unsupported version \(version) (this reader knows versions 1.x to 5.x)")
        }
        let settings = try checkSettings(file.settings ?? StoreKitFile.Settings())
        let storefrontCode = settings.storefront ?? StoreKitConfiguration.defaultStorefront
        guard let storefront = Storefront.named(storefrontCode) else {
            let known = Storefront.known.map(\.code).joined(separator: ", ")
            throw CatalogueError(
                file: source, location: "settings._storefront",
                problem: "storefront \"\(storefrontCode)\" has no currency known to the mock store (known: \(known))")
        }

        var products: [CatalogueProduct] = []
        var seen: [String: String] = [:]
        let lists: [(String, [StoreKitFile.Product], Set<CatalogueProductType>)] = [
            ("products", file.products ?? [], [.consumable, .nonConsumable]),
            ("nonRenewingSubscriptions", file.nonRenewingSubscriptions ?? [], [.nonRenewingSubscription]),
        ]
        for (listName, entries, allowed) in lists {
            for (index, entry) in entries.enumerated() {
                let location = "\(listName)[\(index)]"
                let product = try checkProduct(entry, at: location, allowed: allowed)
                if let first = seen[product.id] {
                    throw CatalogueError(
                        file: source, location: location,
                        problem: "productID \"\(product.id)\" is already used by \(first)")
                }
                seen[product.id] = location
                products.append(product)
            }
        }
        let groups = try checkSubscriptionGroups(file.subscriptionGroups ?? [], seen: &seen)
        return StoreKitConfiguration(
            identifier: file.identifier, version: version, products: products + groups.products, settings: settings,
            subscriptionGroups: groups.groups, subscriptionGroupCount: groups.groups.count, storefront: storefront)
    }

    private func checkProduct(
        _ entry: StoreKitFile.Product, at location: String, allowed: Set<CatalogueProductType>
    ) throws(CatalogueError) -> CatalogueProduct {
        guard !entry.productID.isEmpty else {
            throw CatalogueError(file: source, location: "\(location).productID", problem: "the product id is empty")
        }
        guard let type = CatalogueProductType(fileName: entry.type), allowed.contains(type) else {
            let expected = allowed.map { "\"\($0.fileName)\"" }.sorted().joined(separator: " or ")
            let hint =
                entry.type == CatalogueProductType.autoRenewable.fileName
                ? "; an auto-renewable subscription belongs in a group of \"subscriptionGroups\"" : ""
            throw CatalogueError(
                file: source, location: "\(location).type",
                problem: "type \"\(entry.type)\" is not one the mock store sells here (expected \(expected)\(hint))")
        }
        try refuseSubscriptionOffers(on: entry, type: type, at: location)
        let milliunits = try price(entry.displayPrice, at: "\(location).displayPrice")
        let localizations = try checkLocalizations(entry.localizations, at: location)
        return CatalogueProduct(
            id: entry.productID, referenceName: entry.referenceName ?? entry.productID, type: type,
            displayPrice: entry.displayPrice, priceMilliunits: milliunits,
            familyShareable: entry.familyShareable ?? false, internalID: entry.internalID,
            localizations: localizations)
    }

    /// Offers belong to auto-renewable subscriptions only; on another product they would be silently unusable.
    private func refuseSubscriptionOffers(
        on entry: StoreKitFile.Product, type: CatalogueProductType, at location: String
    ) throws(CatalogueError) {
        let misplaced: [(String, Bool)] = [
            ("introductoryOffer", entry.introductoryOffer != nil),
            ("adHocOffers", !(entry.adHocOffers ?? []).isEmpty),
            ("codeOffers", !(entry.codeOffers ?? []).isEmpty),
            ("winbackOffers", !(entry.winbackOffers ?? []).isEmpty),
        ]
        if let (key, _) = misplaced.first(where: { $0.1 }) {
            throw CatalogueError(
                file: source, location: "\(location).\(key)",
                problem: "a \(type.fileName) product has no subscription offers (only the auto-renewable "
                    + "subscriptions of \"subscriptionGroups\" do)")
        }
    }

    private func checkSettings(_ file: StoreKitFile.Settings) throws(CatalogueError) -> StoreKitSettings {
        if let locale = file.locale, locale.isEmpty {
            throw CatalogueError(file: source, location: "settings._locale", problem: "the locale is empty")
        }
        return StoreKitSettings(
            storefront: file.storefront, locale: file.locale, askToBuyEnabled: file.askToBuyEnabled,
            failTransactionsEnabled: file.failTransactionsEnabled, disableDialogs: file.disableDialogs,
            billingGracePeriodEnabled: file.billingGracePeriodEnabled, billingIssuesEnabled: file.billingIssuesEnabled,
            renewalBillingIssuesEnabled: file.renewalBillingIssuesEnabled, timeRate: file.timeRate,
            storeKitErrors: (file.storeKitErrors ?? []).map {
                StoreKitSettings.SimulatedError(
                    name: $0.name, enabled: $0.enabled ?? false, errorIndex: $0.current?.index,
                    errorType: $0.current?.type)
            })
    }

    struct PriceProblem: Error {
        var problem: String
    }

    /// `"5.00"` → 5000: a plain decimal with at most three decimal places (milliunits must be exact).
    static func milliunits(_ price: String) throws(PriceProblem) -> Int64 {
        let parts = price.split(separator: ".", omittingEmptySubsequences: false)
        let isDigits: (Substring) -> Bool = { !$0.isEmpty && $0.allSatisfy { ("0"..."9").contains($0) } }
        guard (1...2).contains(parts.count), isDigits(parts[0]), parts.count == 1 || isDigits(parts[1]) else {
            throw PriceProblem(problem: "\"\(price)\" is not a decimal price such as \"5.00\"")
        }
        let whole = parts[0].drop { $0 == "0" }
        let fraction = parts.count == 2 ? parts[1] : ""
        guard whole.count <= 12 else {
            throw PriceProblem(problem: "\"\(price)\" is too large")
        }
        let significantFraction = fraction.reversed().drop { $0 == "0" }
        guard significantFraction.count <= 3 else {
            throw PriceProblem(problem: "\"\(price)\" has more than three decimal places (milliunits must be exact)")
        }
        let padded = String(fraction.prefix(3)) + String(repeating: "0", count: max(0, 3 - fraction.count))
        return (Int64(whole) ?? 0) * 1_000 + (Int64(padded) ?? 0)
    }
}
