import Foundation
import StoreWire

/// Checks a Send Consumption Information body as Apple does, field by field, with Apple's error codes.
enum ConsumptionValidator {
    static func validate(_ body: JSONValue, version: ServerAPIVersion) throws(MockStoreError) {
        do throws(MockStoreError.ConsumptionRefusal) {
            guard case .bool(true) = body["customerConsented"] ?? .null else { throw .customerNotConsented }
            guard case .bool = body["sampleContentProvided"] ?? .null else { throw .invalidSampleContentProvided }
            if version == .v2 { try validateVersion2(body) } else { try validateVersion1(body) }
        } catch {
            throw .consumption(error)
        }
    }

    private static func validateVersion2(_ body: JSONValue) throws(MockStoreError.ConsumptionRefusal) {
        guard case .string(let status) = body["deliveryStatus"] ?? .null, DeliveryStatus(rawValue: status).isRecognized
        else { throw .invalidField(.deliveryStatus) }
        if let percentage = body["consumptionPercentage"], percentage != .null {
            guard case .number(let value) = percentage, value == value.rounded(), (0...100_000).contains(value) else {
                throw .consumptionPercentageOutOfRange
            }
        }
        if let preference = body["refundPreference"], preference != .null {
            guard case .string(let value) = preference, RefundPreference(rawValue: value).isRecognized else {
                throw .refundPreferenceNotNamed
            }
        }
    }

    private static func validateVersion1(_ body: JSONValue) throws(MockStoreError.ConsumptionRefusal) {
        for field in MockStoreError.ConsumptionField.allCases {
            guard case .number(let value) = body[field.rawValue] ?? .null, value == value.rounded(),
                field.range.contains(value)
            else { throw .invalidField(field) }
        }
        guard case .string(let token) = body["appAccountToken"] ?? .null,
            token.isEmpty || UUID(uuidString: token) != nil
        else { throw .invalidAppAccountToken }
        if let preference = body["refundPreference"], preference != .null {
            guard case .number(let value) = preference, value == value.rounded(), (0...3).contains(value) else {
                throw .refundPreferenceOutOfRange
            }
        }
    }
}
