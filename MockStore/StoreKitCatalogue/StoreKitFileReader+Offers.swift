/// Reading the four kinds of subscription offer of a `.storekit` subscription.
extension StoreKitFileReader {
    struct Offers {
        var introductory: SubscriptionOffer?
        var promotional: [SubscriptionOffer]
        var codes: [SubscriptionOffer]
        var winBack: [SubscriptionOffer]
    }

    /// The `paymentMode` strings of a `.storekit` file.
    static let paymentModes: [String: SubscriptionPaymentMode] = [
        "free": .freeTrial, "payAsYouGo": .payAsYouGo, "payUpFront": .payUpFront,
    ]

    func checkOffers(of entry: StoreKitFile.Subscription, at location: String) throws(CatalogueError) -> Offers {
        var introductory: SubscriptionOffer?
        if let offer = entry.introductoryOffer {
            introductory = try checkOffer(offer, kind: .introductory, at: "\(location).introductoryOffer")
        } else if let list = entry.introductoryOffers,
            let index = list.firstIndex(where: Self.isBilledUpFront)
        {
            introductory = try checkOffer(
                list[index], kind: .introductory, at: "\(location).introductoryOffers[\(index)]")
        }
        let winBackKey = entry.winbackOffers == nil && entry.winBackOffers != nil ? "winBackOffers" : "winbackOffers"
        return Offers(
            introductory: introductory,
            promotional: try checkOffers(entry.adHocOffers, kind: .promotional, at: "\(location).adHocOffers"),
            codes: try checkOffers(entry.codeOffers, kind: .offerCode, at: "\(location).codeOffers"),
            winBack: try checkOffers(
                entry.winbackOffers ?? entry.winBackOffers, kind: .winBack, at: "\(location).\(winBackKey)"))
    }

    /// 5.0 files also list offers of a yearly commitment billed monthly (`billingPlanType` `MONTHLY`): not sold.
    private static func isBilledUpFront(_ offer: StoreKitFile.Offer) -> Bool {
        offer.billingPlanType == nil || offer.billingPlanType == "BILLED_UPFRONT"
    }

    private func checkOffers(
        _ list: [StoreKitFile.Offer]?, kind: SubscriptionOfferKind, at location: String
    ) throws(CatalogueError) -> [SubscriptionOffer] {
        var offers: [SubscriptionOffer] = []
        var seen: [String: String] = [:]
        for (index, entry) in (list ?? []).enumerated() where Self.isBilledUpFront(entry) {
            let place = "\(location)[\(index)]"
            let offer = try checkOffer(entry, kind: kind, at: place)
            let id = offer.id ?? ""
            if let first = seen[id] {
                throw CatalogueError(
                    file: source, location: place, problem: "offer \"\(id)\" is already used by \(first)")
            }
            seen[id] = place
            offers.append(offer)
        }
        return offers
    }

    private func checkOffer(
        _ entry: StoreKitFile.Offer, kind: SubscriptionOfferKind, at location: String
    ) throws(CatalogueError) -> SubscriptionOffer {
        guard let mode = Self.paymentModes[entry.paymentMode] else {
            throw CatalogueError(
                file: source, location: "\(location).paymentMode",
                problem:
                    "unknown payment mode \"\(entry.paymentMode)\" (expected \"free\", \"payAsYouGo\" or \"payUpFront\")"
            )
        }
        guard let period = SubscriptionPeriod(iso8601: entry.subscriptionPeriod) else {
            throw CatalogueError(
                file: source, location: "\(location).subscriptionPeriod",
                problem: "\"\(entry.subscriptionPeriod)\" is not a period such as \"P3D\", \"P1W\", \"P1M\" or \"P1Y\"")
        }
        let count = entry.numberOfPeriods ?? 1
        guard count >= 1 else {
            throw CatalogueError(
                file: source, location: "\(location).numberOfPeriods",
                problem: "\(count) is not a number of periods (1 or more)")
        }
        let (displayPrice, milliunits) = try offerPrice(entry.displayPrice, mode: mode, at: location)
        return SubscriptionOffer(
            kind: kind, id: try offerID(entry, kind: kind, at: location), paymentMode: mode, period: period,
            periodCount: count, displayPrice: displayPrice, priceMilliunits: milliunits,
            referenceName: entry.referenceName,
            codeEligibility: kind == .offerCode ? try codeEligibility(entry.eligibility, at: location) : [],
            isStackable: kind == .offerCode && (entry.isStackable ?? false))
    }

    /// An offer code's `eligibility`: every kind of customer when missing.
    private func codeEligibility(
        _ names: [String]?, at location: String
    ) throws(CatalogueError) -> Set<OfferCodeEligibility> {
        guard let names else { return Set(OfferCodeEligibility.allCases) }
        var result: Set<OfferCodeEligibility> = []
        for (index, name) in names.enumerated() {
            guard let eligibility = OfferCodeEligibility(rawValue: name) else {
                throw CatalogueError(
                    file: source, location: "\(location).eligibility[\(index)]",
                    problem: "unknown eligibility \"\(name)\" (expected \"new\", \"existing\" or \"expired\")")
            }
            result.insert(eligibility)
        }
        return result
    }

    /// A free offer costs nothing, whatever price the file keeps for it (Xcode keeps the price an offer had
    /// before its mode was changed to free; old files write none); a paid one costs something.
    private func offerPrice(
        _ text: String?, mode: SubscriptionPaymentMode, at location: String
    ) throws(CatalogueError) -> (String, Int64) {
        if mode == .freeTrial { return ("0", 0) }
        guard let text else {
            throw CatalogueError(
                file: source, location: location, problem: "missing key \"displayPrice\" (a paid offer has a price)")
        }
        let milliunits = try price(text, at: "\(location).displayPrice")
        guard milliunits != 0 else {
            throw CatalogueError(
                file: source, location: "\(location).displayPrice",
                problem: "a paid offer cannot cost nothing (use paymentMode \"free\")")
        }
        return (text, milliunits)
    }

    /// Promotional and win-back offers by `offerID`, offer codes by their reference name, introductory offers none.
    private func offerID(
        _ entry: StoreKitFile.Offer, kind: SubscriptionOfferKind, at location: String
    ) throws(CatalogueError) -> String? {
        switch kind {
        case .introductory:
            return nil
        case .offerCode:
            guard let name = entry.referenceName ?? entry.offerID, !name.isEmpty else {
                throw CatalogueError(
                    file: source, location: "\(location).referenceName",
                    problem: "an offer code needs a reference name (its offer identifier)")
            }
            return name
        case .promotional, .winBack:
            guard let id = entry.offerID, !id.isEmpty else {
                throw CatalogueError(
                    file: source, location: "\(location).offerID", problem: "the offer needs an offerID")
            }
            return id
        }
    }
}
