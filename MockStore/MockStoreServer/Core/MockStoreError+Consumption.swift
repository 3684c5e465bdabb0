import StoreWire

extension MockStoreError {
    /// A Send Consumption Information body Apple refuses, with Apple's code for the field.
    public enum ConsumptionRefusal: Error, Equatable, Sendable {
        /// `customerConsented` is not `true`.
        case customerNotConsented
        case invalidSampleContentProvided
        /// A v1 field out of its range, or v2's `deliveryStatus` not one of its names.
        case invalidField(ConsumptionField)
        /// v2's `consumptionPercentage` not a whole number from 0 to 100000.
        case consumptionPercentageOutOfRange
        /// v2's `refundPreference` not one of its names.
        case refundPreferenceNotNamed
        /// v2's `GRANT_PRORATED` without a percentage strictly between 0 and 100000.
        case proratedWithoutPercentage
        /// v1's `refundPreference` not 0 to 3.
        case refundPreferenceOutOfRange
        case invalidAppAccountToken

        /// Apple's error code for the refusal.
        public var code: StoreErrorCode {
            switch self {
            case .customerNotConsented: .invalidCustomerConsented
            case .invalidSampleContentProvided: .invalidSampleContentProvided
            case .invalidField(let field): field.code
            case .consumptionPercentageOutOfRange, .refundPreferenceNotNamed, .proratedWithoutPercentage,
                .refundPreferenceOutOfRange:
                .generalBadRequest
            case .invalidAppAccountToken: .invalidConsumptionAppAccountToken
            }
        }

        /// The words of the refusal.
        var message: String {
            switch self {
            case .customerNotConsented: "Invalid request. The customer consented field is invalid (it must be true)."
            case .invalidSampleContentProvided: "Invalid request. The sample content provided field is invalid."
            case .invalidField(let field): "Invalid request. The \(field.words) field is invalid."
            case .consumptionPercentageOutOfRange:
                "Invalid request. consumptionPercentage must be an integer from 0 to 100000 (milli-percent)."
            case .refundPreferenceNotNamed:
                "Invalid request. refundPreference must be DECLINE, GRANT_FULL or GRANT_PRORATED."
            case .proratedWithoutPercentage:
                "Invalid request. GRANT_PRORATED needs a consumptionPercentage greater than 0 and less than 100000."
            case .refundPreferenceOutOfRange: "Invalid request. refundPreference must be 0 to 3."
            case .invalidAppAccountToken:
                "Invalid request. The app account token field must be a UUID or an empty string."
            }
        }
    }

    /// A numbered field of Send Consumption Information v1 (`deliveryStatus` also of v2), its range and Apple's code.
    public enum ConsumptionField: String, CaseIterable, Equatable, Sendable {
        case consumptionStatus, platform, deliveryStatus, accountTenure, playTime, lifetimeDollarsRefunded
        case lifetimeDollarsPurchased, userStatus

        /// The values v1 takes.
        var range: ClosedRange<Double> {
            switch self {
            case .consumptionStatus: 0...3
            case .platform: 0...2
            case .deliveryStatus: 0...5
            case .userStatus: 0...4
            case .accountTenure, .playTime, .lifetimeDollarsRefunded, .lifetimeDollarsPurchased: 0...7
            }
        }

        var code: StoreErrorCode {
            switch self {
            case .consumptionStatus: .invalidConsumptionStatus
            case .platform: .invalidPlatform
            case .deliveryStatus: .invalidDeliveryStatus
            case .accountTenure: .invalidAccountTenure
            case .playTime: .invalidPlayTime
            case .lifetimeDollarsRefunded: .invalidLifetimeDollarsRefunded
            case .lifetimeDollarsPurchased: .invalidLifetimeDollarsPurchased
            case .userStatus: .invalidUserStatus
            }
        }

        /// The field's name in Apple's words.
        var words: String {
            switch self {
            case .consumptionStatus: "consumption status"
            case .platform: "platform"
            case .deliveryStatus: "delivery status"
            case .accountTenure: "account tenure"
            case .playTime: "play time"
            case .lifetimeDollarsRefunded: "lifetime dollars refunded"
            case .lifetimeDollarsPurchased: "lifetime dollars purchased"
            case .userStatus: "user status"
            }
        }
    }
}
