import Foundation
import StoreWire

/// Checks a Send Consumption Information body as Apple does, field by field, with Apple's error codes.
enum ConsumptionValidator {
    static func validate(_ body: JSONValue, version: String) throws(MockStoreError) {
        func fail(_ code: StoreErrorCode, _ message: String) -> MockStoreError {
            .apiError(400, code, message)
        }
        guard case .bool(true) = body["customerConsented"] ?? .null else {
            throw fail(
                StoreErrorCode.invalidCustomerConsented,
                "Invalid request. The customer consented field is invalid (it must be true).")
        }
        guard case .bool = body["sampleContentProvided"] ?? .null else {
            throw fail(
                StoreErrorCode.invalidSampleContentProvided,
                "Invalid request. The sample content provided field is invalid.")
        }
        if version == "v2" {
            guard case .string(let status) = body["deliveryStatus"] ?? .null,
                DeliveryStatus(rawValue: status).isRecognized
            else {
                throw fail(
                    StoreErrorCode.invalidDeliveryStatus, "Invalid request. The delivery status field is invalid.")
            }
            if let percentage = body["consumptionPercentage"], percentage != .null {
                guard case .number(let value) = percentage, value == value.rounded(), (0...100_000).contains(value)
                else {
                    throw fail(
                        StoreErrorCode.generalBadRequest,
                        "Invalid request. consumptionPercentage must be an integer from 0 to 100000 (milli-percent).")
                }
            }
            if let preference = body["refundPreference"], preference != .null {
                guard case .string(let value) = preference, RefundPreference(rawValue: value).isRecognized else {
                    throw fail(
                        StoreErrorCode.generalBadRequest,
                        "Invalid request. refundPreference must be DECLINE, GRANT_FULL or GRANT_PRORATED.")
                }
            }
            return
        }
        let ranges: [(String, ClosedRange<Double>, StoreErrorCode, String)] = [
            ("consumptionStatus", 0...3, StoreErrorCode.invalidConsumptionStatus, "consumption status"),
            ("platform", 0...2, StoreErrorCode.invalidPlatform, "platform"),
            ("deliveryStatus", 0...5, StoreErrorCode.invalidDeliveryStatus, "delivery status"),
            ("accountTenure", 0...7, StoreErrorCode.invalidAccountTenure, "account tenure"),
            ("playTime", 0...7, StoreErrorCode.invalidPlayTime, "play time"),
            (
                "lifetimeDollarsRefunded", 0...7, StoreErrorCode.invalidLifetimeDollarsRefunded,
                "lifetime dollars refunded"
            ),
            (
                "lifetimeDollarsPurchased", 0...7, StoreErrorCode.invalidLifetimeDollarsPurchased,
                "lifetime dollars purchased"
            ),
            ("userStatus", 0...4, StoreErrorCode.invalidUserStatus, "user status"),
        ]
        for (field, range, code, name) in ranges {
            guard case .number(let value) = body[field] ?? .null, value == value.rounded(), range.contains(value) else {
                throw fail(code, "Invalid request. The \(name) field is invalid.")
            }
        }
        guard case .string(let token) = body["appAccountToken"] ?? .null,
            token.isEmpty || UUID(uuidString: token) != nil
        else {
            throw fail(
                StoreErrorCode.invalidConsumptionAppAccountToken,
                "Invalid request. The app account token field must be a UUID or an empty string.")
        }
        if let preference = body["refundPreference"], preference != .null {
            guard case .number(let value) = preference, value == value.rounded(), (0...3).contains(value) else {
                throw fail(StoreErrorCode.generalBadRequest, "Invalid request. refundPreference must be 0 to 3.")
            }
        }
    }
}
