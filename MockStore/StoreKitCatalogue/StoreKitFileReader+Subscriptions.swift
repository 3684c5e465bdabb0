/// Reading `subscriptionGroups`: each group, and each of its subscriptions as a ``CatalogueProduct`` of type
/// ``CatalogueProductType/autoRenewable`` with its ``SubscriptionDetails``.
extension StoreKitFileReader {
    /// The renewal periods App Store Connect and Xcode offer for an auto-renewable subscription.
    static let renewalPeriods: [SubscriptionPeriod] = [
        .init(value: 1, unit: .week), .init(value: 1, unit: .month), .init(value: 2, unit: .month),
        .init(value: 3, unit: .month), .init(value: 6, unit: .month), .init(value: 1, unit: .year),
    ]

    /// The groups in file order and their subscriptions; `seen` maps every product id already read to where.
    func checkSubscriptionGroups(
        _ groups: [StoreKitFile.SubscriptionGroup], seen: inout [String: String]
    ) throws(CatalogueError) -> (groups: [SubscriptionGroup], products: [CatalogueProduct]) {
        var result: [SubscriptionGroup] = []
        var products: [CatalogueProduct] = []
        var groupIDs: [String: String] = [:]
        for (index, group) in groups.enumerated() {
            let location = "subscriptionGroups[\(index)]"
            guard !group.id.isEmpty else {
                throw CatalogueError(file: source, location: "\(location).id", problem: "the group id is empty")
            }
            if let first = groupIDs[group.id] {
                throw CatalogueError(
                    file: source, location: "\(location).id",
                    problem: "group id \"\(group.id)\" is already used by \(first)")
            }
            groupIDs[group.id] = location
            let subscriptions = group.subscriptions ?? []
            guard !subscriptions.isEmpty else {
                throw CatalogueError(
                    file: source, location: "\(location).subscriptions",
                    problem: "the group \"\(group.name ?? group.id)\" has no subscriptions (a group sells at least one)"
                )
            }
            var ids: [String] = []
            for (position, entry) in subscriptions.enumerated() {
                let place = "\(location).subscriptions[\(position)]"
                let product = try checkSubscription(entry, at: place, groupID: group.id)
                if let first = seen[product.id] {
                    throw CatalogueError(
                        file: source, location: place,
                        problem: "productID \"\(product.id)\" is already used by \(first)")
                }
                seen[product.id] = place
                ids.append(product.id)
                products.append(product)
            }
            result.append(
                SubscriptionGroup(
                    id: group.id, name: group.name ?? group.id,
                    localizations: try checkLocalizations(group.localizations, at: location), productIDs: ids))
        }
        return (result, products)
    }

    private func checkSubscription(
        _ entry: StoreKitFile.Subscription, at location: String, groupID: String
    ) throws(CatalogueError) -> CatalogueProduct {
        guard !entry.productID.isEmpty else {
            throw CatalogueError(file: source, location: "\(location).productID", problem: "the product id is empty")
        }
        guard entry.type == CatalogueProductType.autoRenewable.fileName else {
            throw CatalogueError(
                file: source, location: "\(location).type",
                problem:
                    "type \"\(entry.type)\" is not an auto-renewable subscription (expected \"RecurringSubscription\")")
        }
        if let declared = entry.subscriptionGroupID, declared != groupID {
            throw CatalogueError(
                file: source, location: "\(location).subscriptionGroupID",
                problem: "\"\(declared)\" is not the id of the group it is in (\"\(groupID)\")")
        }
        guard entry.groupNumber >= 1 else {
            throw CatalogueError(
                file: source, location: "\(location).groupNumber",
                problem: "level \(entry.groupNumber) is not a level (1 is the highest, then 2, 3, …)")
        }
        let period = try renewalPeriod(entry.recurringSubscriptionPeriod, at: "\(location).recurringSubscriptionPeriod")
        let milliunits = try price(entry.displayPrice, at: "\(location).displayPrice")
        let offers = try checkOffers(of: entry, at: location)
        return CatalogueProduct(
            id: entry.productID, referenceName: entry.referenceName ?? entry.productID, type: .autoRenewable,
            displayPrice: entry.displayPrice, priceMilliunits: milliunits,
            familyShareable: entry.familyShareable ?? false, internalID: entry.internalID,
            localizations: try checkLocalizations(entry.localizations, at: location),
            subscription: SubscriptionDetails(
                groupID: groupID, groupLevel: entry.groupNumber, period: period,
                introductoryOffer: offers.introductory, promotionalOffers: offers.promotional,
                offerCodes: offers.codes, winBackOffers: offers.winBack))
    }

    private func renewalPeriod(_ text: String, at location: String) throws(CatalogueError) -> SubscriptionPeriod {
        let allowed = Self.renewalPeriods.map { "\"\($0)\"" }.joined(separator: ", ")
        guard let period = SubscriptionPeriod(iso8601: text), Self.renewalPeriods.contains(period) else {
            throw CatalogueError(
                file: source, location: location,
                problem:
                    "\"\(text)\" is not a renewal period of an auto-renewable subscription (expected one of \(allowed))"
            )
        }
        return period
    }

    /// A price in milliunits, or an error at `location`.
    func price(_ text: String, at location: String) throws(CatalogueError) -> Int64 {
        do {
            return try Self.milliunits(text)
        } catch {
            throw CatalogueError(file: source, location: location, problem: error.problem)
        }
    }

    /// The localizations of a product or group, each with a locale.
    func checkLocalizations(
        _ localizations: [StoreKitFile.Localization]?, at location: String
    ) throws(CatalogueError) -> [ProductLocalization] {
        let localizations = localizations ?? []
        for (index, localization) in localizations.enumerated() where localization.locale.isEmpty {
            throw CatalogueError(
                file: source, location: "\(location).localizations[\(index)].locale", problem: "the locale is empty")
        }
        return localizations.map {
            ProductLocalization(locale: $0.locale, displayName: $0.displayName ?? "", description: $0.description ?? "")
        }
    }
}
