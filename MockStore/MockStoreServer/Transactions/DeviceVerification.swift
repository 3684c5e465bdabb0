import Foundation
import Signing

/// The device a device-API call comes from, as StoreKit's `AppStore.deviceVerificationID` names it: signed data
/// handed to it carries `deviceVerificationNonce` (a fresh lowercased UUID) and `deviceVerification`, the base64
/// of the SHA-384 of the nonce's string followed by this id's lowercased string, as Apple documents.
///
/// Clients send it in the ``headerName`` header; without one, ``defaultID`` stands in.
public struct DeviceVerification: Equatable, Sendable {
    /// The request header that names the device (a UUID).
    public static let headerName = "X-Device-Verification-ID"
    /// The device id when a request names none.
    public static let defaultID = UUID(uuidString: "00000000-0000-4000-8000-000000000001")!

    public var deviceID: UUID

    public init(deviceID: UUID = Self.defaultID) {
        self.deviceID = deviceID
    }

    /// The device named by `header` (nil: the default).
    ///
    /// - Throws: ``MockStoreError`` 4000000 when the header is not a UUID.
    public static func from(header: String?) throws(MockStoreError) -> DeviceVerification {
        guard let header else { return DeviceVerification() }
        guard let id = UUID(uuidString: header.trimmingCharacters(in: .whitespaces)) else {
            throw .invalid(.invalidDeviceVerification(header))
        }
        return DeviceVerification(deviceID: id)
    }

    /// A fresh nonce and the verification value for it: (`deviceVerification`, `deviceVerificationNonce`).
    public func stamp(nonce: UUID = RandomUUID.make()) -> (verification: String, nonce: String) {
        let nonceText = nonce.uuidString.lowercased()
        let digest = SHA384.hash(Array((nonceText + deviceID.uuidString.lowercased()).utf8))
        return (Data(digest).base64EncodedString(), nonceText)
    }
}
