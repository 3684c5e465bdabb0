import Foundation
import MockStoreHTTP
import StoreWire

/// A notification recorded before it is signed: what its JWS will say, exactly, made when the notification is, and
/// signed the first time it is read from the store (to be sent, or shown by Get Notification History, Get Test
/// Notification Status or a test control), then kept signed.
///
/// Signing a notification (its transaction's JWS, then its own: two ES256 signatures) inside the purchase's
/// database transaction took a fifth of the time the store's lock was held for a purchase, for a notification
/// that a store without `--notify` never sends and few read. What is stored is complete, so a store restarted
/// after a crash signs and delivers it all the same; the claims (dates included) are those of the moment the
/// notification was made.
///
/// Stored in the notification's `signed_payload` column as ``marker``, the payload's JSON and the transaction's
/// claims (JSON), a line each (the store's compact JSON has no raw line breaks): a compact JWS never begins with
/// `{`, so the two cannot be mistaken for each other. (Not JSON around JSON: escaping one inside the other cost as
/// much as making it.)
struct DeferredNotification: Equatable {
    /// The notification's payload as JSON; its `signedTransactionInfo`, if it has one, is ``placeholder``.
    var payload: String
    /// The claims of the transaction's JWS (`signedTransactionInfo`), as JSON.
    var transaction: String?

    /// Stands in the payload for the transaction's JWS until it is signed.
    static let placeholder = "mockstore:signedTransactionInfo"
    /// The first line of a deferred notification.
    static let marker = "{mockstore:deferred-notification}"

    /// Whether a stored `signed_payload` is a deferred notification (else it is the JWS).
    static func isDeferred(_ stored: String) -> Bool { stored.utf8.first == UInt8(ascii: "{") }

    /// The text stored for it.
    func stored() -> String {
        [Self.marker, payload, transaction].compactMap { $0 }.joined(separator: "\n")
    }

    /// The notification in `stored`, as ``stored()`` wrote it.
    init(stored: String) throws {
        let lines = stored.split(separator: "\n", omittingEmptySubsequences: false)
        guard (2...3).contains(lines.count), lines[0] == Self.marker else {
            throw MockStoreError.internalFault(.unreadableStoredNotification)
        }
        payload = String(lines[1])
        transaction = lines.count == 3 ? String(lines[2]) : nil
    }

    init(payload: String, transaction: String?) {
        self.payload = payload
        self.transaction = transaction
    }

    /// The JWS of the notification in `stored`, signed by `signer`: its transaction first, put in place of the
    /// ``placeholder``, then the payload.
    static func seal(_ stored: String, signer: any TransactionSigner) throws -> String {
        let deferred = try DeferredNotification(stored: stored)
        var payload = deferred.payload
        if let transaction = deferred.transaction {
            let signed = try signer.sign(json: Array(transaction.utf8))
            let quoted = "\"" + placeholder + "\""
            guard let range = payload.range(of: quoted) else {
                throw MockStoreError.internalFault(.notificationWithoutTransactionPlace)
            }
            payload.replaceSubrange(range, with: "\"" + signed + "\"")
        }
        return try signer.sign(json: Array(payload.utf8))
    }
}
