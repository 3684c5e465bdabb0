import Foundation
import OptionParsing
import Signing
import StoreTestControls
import StoreWire

/// `mockstore control buy --offer`, `offer-key`, `offer-keys`, `family-share` and `family-revoke`: subscription
/// offers and Family Sharing from the command line.
/// The `mockstore control` commands of one area (see ``ControlCommands``).
enum OfferControls {
    /// `buy`'s `--offer TYPE:ID`.
    static let offerOption = OptionSpec.string(
        .offer, "TYPE:ID",
        help: "redeem a subscription offer: promotional:OFFER_ID, offerCode:REFERENCE_NAME or winBack:OFFER_ID (as "
            + "SKTestSession's buyProduct with promotionalOffer(id:): no signature needed)")

    /// The kinds `--offer` takes.
    static let offerTypes = ["promotional", "offerCode", "winBack"]

    static let offerKey = ControlCommand(
        CommandSpec(
            "offer-key",
            summary: "register a subscription offer key: promotional offers bought through the device API must be "
                + "signed with it (FILE: its private key, .p8 PEM as App Store Connect gives it, or its public key)",
            positionals: [
                PositionalSpec(.keyId, help: "the key's id, as signatures name it"),
                PositionalSpec(.file, help: "a PEM file: the private key or the public key"),
            ]),
        actsForCustomer: true
    ) { args throws(UsageError) in
        // The key file is read when the control runs: a file that is not there is a failure (exit 1).
        let keyId = args.positional(.keyId) ?? ""
        return ControlPlan(
            request: ControlRequest(
                TestControls.registerOfferKey, body: TestOfferKeyRequest(keyId: keyId, publicKey: "")),
            input: .offerKey(keyId: keyId, file: args.positional(.file) ?? ""))
    }

    static let offerKeys = ControlCommand(
        CommandSpec("offer-keys", summary: "list the ids of the subscription offer keys registered"),
        sends: ControlRequest(TestControls.offerKeys))

    static let familyShare = ControlCommand(
        CommandSpec(
            "family-share",
            summary: "a family member bought a family-shareable subscription and shares it with this customer: "
                + "FAMILY_SHARED transactions, SUBSCRIBED, renewals on the clock",
            positionals: [PositionalSpec(.product, help: "a family-shareable auto-renewable's product id")])
    ) { args throws(UsageError) in
        ControlRequest(TestControls.familyShare, body: PurchaseRequestBody(productId: args.positional(.product) ?? ""))
    }

    static let familyRevoke = ControlCommand(
        CommandSpec(
            "family-revoke",
            summary: "Family Sharing of the subscription ends (the purchaser stopped sharing, left the family or was "
                + "refunded): REVOKE",
            positionals: [PositionalSpec(.subscription, help: "a transaction id of it, or a product id of its group")])
    ) { args throws(UsageError) in ControlRequest(TestControls.familyRevoke, try args.subscriptionReference()) }

    /// `--offer TYPE:ID` as a purchase option; `nil` without one.
    static func offer(_ args: ParsedArguments) throws(UsageError) -> PurchaseOfferOption? {
        guard let text = args.string(.offer) else { return nil }
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2, offerTypes.contains(parts[0]), !parts[1].isEmpty else {
            throw .invalidValue(
                "--offer", text, isNot: "TYPE:ID with TYPE promotional, offerCode or winBack (e.g. promotional:spring)",
                command: args.path)
        }
        return PurchaseOfferOption(type: PurchaseOfferKind(rawValue: parts[0]), id: parts[1])
    }

    /// The public key of the PEM in `file` (a private key's derived), as PEM; or why there is none.
    static func publicKeyPEM(_ file: String) -> Result<String, ControlFailure> {
        let text: String
        switch FileWords.read(file) {
        case .failure(let problem): return .failure(ControlFailure("cannot read the key file \(file): \(problem.why)"))
        case .success(let bytes): text = String(decoding: bytes, as: UTF8.self)
        }
        if let key = try? P256PrivateKey(pemRepresentation: text) { return .success(key.publicKey.pemRepresentation) }
        if let key = try? P256PublicKey(pemRepresentation: text) { return .success(key.pemRepresentation) }
        return .failure(
            ControlFailure("the key file \(file) holds no P-256 key in PEM (a .p8 private key or a PUBLIC KEY block)"))
    }
}
