import Foundation
import OptionParsing
import Signing
import StoreTestControls
import StoreWire

/// `mockstore control buy --offer`, `offer-key`, `offer-keys`, `family-share` and `family-revoke`: subscription
/// offers and Family Sharing from the command line. The `mockstore control` commands of one area (see
/// ``ControlCommands``).
enum OfferControls {
    /// `buy`'s `--offer TYPE:ID`.
    static let offer = Option.string(
        .offer, "TYPE:ID",
        help: "redeem a subscription offer: promotional:OFFER_ID, offerCode:REFERENCE_NAME or winBack:OFFER_ID (as "
            + "SKTestSession's buyProduct with promotionalOffer(id:): no signature needed)")

    /// The kinds `--offer` takes.
    static let offerTypes = ["promotional", "offerCode", "winBack"]

    struct OfferKey: ControlCommand {
        static let keyId = Argument.word(.keyId, help: "the key's id, as signatures name it")
        static let file = Argument.word(.file, help: "a PEM file: the private key or the public key")
        static let configuration = CommandSpec(
            "offer-key",
            summary: "register a subscription offer key: promotional offers bought through the device API must be "
                + "signed with it (FILE: its private key, .p8 PEM as App Store Connect gives it, or its public key)",
            positionals: [keyId.spec, file.spec])

        let keyId: String
        let file: String

        init(_ arguments: ParsedArguments) throws(UsageError) {
            keyId = try arguments.value(of: Self.keyId)
            file = try arguments.value(of: Self.file)
        }

        /// The key file is read when the control runs: a file that is not there is a failure (exit 1).
        func plan() -> ControlPlan {
            ControlPlan(
                request: ControlRequest(
                    TestControls.registerOfferKey, body: TestOfferKeyRequest(keyId: keyId, publicKey: "")),
                input: .offerKey(keyId: keyId, file: file))
        }
    }

    struct OfferKeys: FixedControl {
        static let name = "offer-keys"
        static let summary = "list the ids of the subscription offer keys registered"
        static let request = ControlRequest(TestControls.offerKeys)
    }

    struct FamilyShare: ControlCommand {
        static let product = Argument.word(.product, help: "a family-shareable auto-renewable's product id")
        static let configuration = CommandSpec(
            "family-share",
            summary: "a family member bought a family-shareable subscription and shares it with this customer: "
                + "FAMILY_SHARED transactions, SUBSCRIBED, renewals on the clock",
            positionals: [product.spec])
        let product: String
        init(_ arguments: ParsedArguments) throws(UsageError) { product = try arguments.value(of: Self.product) }
        func plan() -> ControlPlan {
            ControlPlan(
                request: ControlRequest(TestControls.familyShare, body: PurchaseRequestBody(productId: product)))
        }
    }

    struct FamilyRevoke: SubscriptionControl {
        static let name = "family-revoke"
        static let summary =
            "Family Sharing of the subscription ends (the purchaser stopped sharing, left the family or was "
            + "refunded): REVOKE"
        static let word = Argument.word(.subscription, help: "a transaction id of it, or a product id of its group")
        static let endpoint = TestControls.familyRevoke
        let subscription: String
    }

    /// `--offer TYPE:ID` as a purchase option; `nil` without one.
    static func offerOption(_ text: String?) throws(UsageError) -> PurchaseOfferOption? {
        guard let text else { return nil }
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2, offerTypes.contains(parts[0]), !parts[1].isEmpty else {
            throw .invalidValue(
                "--offer", text, isNot: "TYPE:ID with TYPE promotional, offerCode or winBack (e.g. promotional:spring)")
        }
        return PurchaseOfferOption(type: PurchaseOfferKind(rawValue: parts[0]), id: parts[1])
    }

    /// The public key of the PEM in `file` (a private key's derived), as PEM; or why there is none.
    static func publicKeyPEM(_ file: String) -> Result<String, ControlFailure> {
        let text: String
        switch FileWords.read(file) {
        case .failure(let problem): return .failure(.unreadableKeyFile(path: file, why: problem.why))
        case .success(let bytes): text = String(decoding: bytes, as: UTF8.self)
        }
        if let key = try? P256PrivateKey(pemRepresentation: text) { return .success(key.publicKey.pemRepresentation) }
        if let key = try? P256PublicKey(pemRepresentation: text) { return .success(key.pemRepresentation) }
        return .failure(.notAKeyFile(path: file))
    }
}
