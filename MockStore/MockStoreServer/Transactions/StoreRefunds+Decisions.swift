import StoreWire

/// Refund decisions from the consumption information a server sends, as Apple's sandbox makes them: while a refund
/// request is open (`request-refund`), a Send Consumption Information (v2) whose `refundPreference` is `DECLINE`
/// declines it (REFUND_DECLINED), `GRANT_FULL` refunds it all (REFUND, `REFUND_FULL`), and `GRANT_PRORATED` refunds
/// the share not consumed: `revocationPercentage` = 100000 − `consumptionPercentage` (REFUND, `REFUND_PRORATED`).
/// Without an open request, or without a preference (or with v1's numeric one), the information is only recorded.
extension StoreRefunds {
    /// What the consumption information `request` (v2) asks of an open refund request.
    enum RefundDecision: Equatable {
        case decline
        case grant(percentage: Int?)
    }

    /// The decision `request` asks for, or nil when it asks none; throws as Apple does for a `GRANT_PRORATED`
    /// without a `consumptionPercentage` strictly between 0 and 100000.
    static func refundDecision(_ request: JSONValue, version: ServerAPIVersion) throws(MockStoreError)
        -> RefundDecision?
    {
        guard version == .v2, case .string(let preference) = request["refundPreference"] ?? .null else { return nil }
        switch preference {
        case "DECLINE": return .decline
        case "GRANT_FULL": return .grant(percentage: nil)
        case "GRANT_PRORATED":
            guard case .number(let consumed) = request["consumptionPercentage"] ?? .null, consumed > 0,
                consumed < 100_000, consumed == consumed.rounded()
            else {
                throw .consumption(.proratedWithoutPercentage)
            }
            return .grant(percentage: 100_000 - Int(consumed))
        default: return nil
        }
    }

    /// Applies `decision` to `id`'s refund request if one is open (inside the caller's database work); whether it did.
    func decideRefund(_ id: String, _ decision: RefundDecision?, _ database: TransactionStore) throws -> Bool {
        guard let decision, try existing(id, database).refundRequest == .requested else { return false }
        switch decision {
        case .decline: _ = try refuseRefund(id, database)
        case .grant(let percentage):
            _ = try revoke(id, reason: .refundedForOtherReason, percentage: percentage, database)
        }
        return true
    }
}
