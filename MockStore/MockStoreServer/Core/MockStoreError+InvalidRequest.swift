import StoreKitCatalogue
import StoreWire

extension MockStoreError {
    /// A request the store cannot read or act on as given (400, general bad request), in the store's words.
    public enum InvalidRequest: Equatable, Sendable {
        case bodyRequired
        case missingField(String)
        case wrongType(field: String, detail: String)
        case nullField(String)
        case malformedJSON
        case bodyNotAnObject
        case unknownStorefront(String)
        case invalidLocale(String)
        /// A well-formed locale none of the catalogue's products is localized in.
        case localeNotServed(String, served: [String])
        case unknownAPI(String)
        case failureNotAllowed(FailableAPI, error: String)
        case invalidQuantity(Int, productType: CatalogueProductType, allowed: ClosedRange<Int>)
        case invalidCursor(String)
        case invalidPageSize(String, largest: Int)
        case invalidDeviceVerification(String)
        case invalidDuration(String)
        case durationBeyondYear9999(String)
        case invalidTimeRate(String)
        case invalidRevocationReason(RevocationReason)
        case invalidRevocationPercentage(Int)
        case invalidConsumptionRequestReason(ConsumptionRequestReason)
        case invalidPrice(Int64)
        /// Family Sharing shares auto-renewable subscriptions only.
        case notShareableType(productId: String)
        case subscriptionWithoutGroup(productId: String)
        case offSaleNeedsProduct
        case invalidOfferKeyId
        case offerKeyNotP256

        /// The words of the refusal.
        var message: String {
            switch self {
            case .bodyRequired: "A JSON request body is required."
            case .missingField(let field): "Missing field \"\(field)\"."
            case .wrongType(let field, let detail): "Wrong type for \"\(field)\": \(detail)"
            case .nullField(let field): "Field \"\(field)\" must not be null."
            case .malformedJSON: "Malformed JSON body."
            case .bodyNotAnObject: "The body must be a JSON object."
            case .unknownStorefront(let code):
                "Unknown storefront \"\(code)\": give an App Store storefront's ISO 3166-1 alpha-3 code, "
                    + "such as GBR or USA (\(Storefront.known.count) are known)."
            case .invalidLocale(let locale): "Invalid locale \"\(locale)\": give a locale identifier such as en_GB."
            case .localeNotServed(let locale, let served):
                "The catalogue cannot serve locale \"\(locale)\": its products are localized in "
                    + served.joined(separator: ", ") + "."
            case .unknownAPI(let name): "Unknown API \"\(name)\" (one of \(FailableAPI.namesDescription))."
            case .failureNotAllowed(let api, let error):
                "\(api.rawValue) cannot fail with \"\(error)\": use one of \(api.allowedErrorsDescription)."
            case .invalidQuantity(let quantity, let type, let allowed):
                "Invalid quantity \(quantity): \(type.storeKitType) products take \(allowed.lowerBound)"
                    + (allowed.count > 1 ? " to \(allowed.upperBound)." : " only.")
            case .invalidCursor(let cursor): "Invalid cursor \"\(cursor)\": give back the cursor of an earlier answer."
            case .invalidPageSize(let limit, let largest):
                "\"\(limit)\" is not a page size: give limit as a number from 1 to \(largest)."
            case .invalidDeviceVerification(let header):
                "Invalid \(DeviceVerification.headerName) \"\(header)\": give the device's verification id, a UUID."
            case .invalidDuration(let text):
                "\"\(text)\" is not a duration the clock can move by: give a positive ISO 8601 duration such as "
                    + "P1M, P400D, PT90M or P1Y2M3DT4H5M6S (the clock never goes back)."
            case .durationBeyondYear9999(let text): "\"\(text)\" moves the clock beyond the year 9999."
            case .invalidTimeRate(let text):
                "\"\(text)\" is not a time rate: one of " + TimeRate.allCases.map(\.name).joined(separator: ", ")
                    + " (or its _timeRate number)."
            case .invalidRevocationReason(let reason):
                "Invalid revocationReason \(reason): 0 (other) or 1 (an issue in the app)."
            case .invalidRevocationPercentage(let percentage):
                "Invalid revocationPercentage \(percentage): milliunits from 1 to 100000 (50000 is 50%)."
            case .invalidConsumptionRequestReason(let reason):
                "Invalid consumptionRequestReason \"\(reason)\" (one of "
                    + StoreRefunds.consumptionRequestReasons.map(\.rawValue).joined(separator: ", ") + ")."
            case .invalidPrice(let price): "Invalid price \(price): milliunits above 0 (10990 is 10.99)."
            case .notShareableType(let id):
                "\(id) is not an auto-renewable subscription: Family Sharing shares those here."
            case .subscriptionWithoutGroup(let id): "\(id) is an auto-renewable subscription without a group."
            case .offSaleNeedsProduct:
                "Taking a product off sale needs productId (an auto-renewable subscription of the catalogue) "
                    + "and forSale."
            case .invalidOfferKeyId: "An offer key needs an id of 1 to 128 characters."
            case .offerKeyNotP256: "The offer key is not a P-256 public key in PEM (-----BEGIN PUBLIC KEY-----)."
            }
        }
    }
}
