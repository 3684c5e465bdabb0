#!/usr/bin/env python3
"""Interop test of promotional offer signatures: the mock store accepts what Apple's library signs, unchanged.

Starts the real `mockstore` with the subscriptions fixture, registers a subscription offer key (an ES256 key made
here, as App Store Connect hands one out) with `POST /test/v1/offer-keys`, and buys promotional offers through the
device API signed by Apple's `PromotionalOfferSignatureCreator` (keyID, nonce, timestamp, signature) and
`PromotionalOfferV2SignatureCreator` (a compact JWS). Each accepted purchase is checked in its OFFER_REDEEMED
notification with Apple's `SignedDataVerifier`; a tampered signature, another product's, a reused nonce, a stale
timestamp and a tampered JWS are refused. Then Family Sharing: a subscription a family member shares reaches the
customer as FAMILY_SHARED transactions, and the purchaser's refund as REVOKE (FAMILY_REVOKE), each verified by
Apple's library.

    python3 Tests/Interop/verify_offers.py --mockstore .build/debug/mockstore

Exits 0 when every check passes, 1 when one fails, 2 when it cannot run.
"""

import base64
import json
import os
import sys
import time
import uuid

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from verify_transactions import BUNDLE_ID, CheckFailed, expect, run_one_store_script  # noqa: E402
from verify_subscriptions import Steps  # noqa: E402

PRO = "com.example.pro.monthly"
PRO_YEARLY = "com.example.pro.yearly"
HALF = "pro.monthly.half"
OFFER_KEY_ID = "OFFERKEY01"


def purchase(steps, product, offer, token=None):
    body = {"productId": product, "offer": offer}
    if token:
        body["appAccountToken"] = token
    status, _, answer = steps.store.request("POST", "/storekit/v1/purchases", body)
    return status, answer


def first_form(steps, creator):
    from appstoreserverlibrary.models.OfferType import OfferType

    def signed(product, offer_id, token, nonce, timestamp):
        signature = creator.create_signature(product, offer_id, token, nonce, timestamp)
        return {"type": "promotional", "id": offer_id, "keyID": OFFER_KEY_ID, "nonce": str(nonce),
                "timestamp": timestamp, "signature": signature}

    token = str(uuid.uuid4())
    now = int(time.time() * 1000)
    offer = signed(PRO, HALF, token, uuid.uuid4(), now)
    tampered = dict(offer)
    raw = bytearray(base64.b64decode(offer["signature"]))
    raw[-1] ^= 0x01
    tampered["signature"] = base64.b64encode(bytes(raw)).decode()
    status, answer = purchase(steps, PRO, tampered, token)
    expect(status == 400 and b"invalidOfferSignature" in answer, f"a tampered signature is refused (got {status})")
    status, _ = purchase(steps, PRO, offer)
    expect(status == 400, f"the signature is over the appAccountToken: without it, refused (got {status})")
    status, _ = purchase(steps, PRO_YEARLY, dict(offer, id="pro.yearly.loyalty"), token)
    expect(status == 400, f"a signature of another product and offer is refused (got {status})")
    stale = signed(PRO, HALF, token, uuid.uuid4(), now - 25 * 3_600_000)
    status, answer = purchase(steps, PRO, stale, token)
    expect(status == 400 and b"24 hours" in answer, f"a signature over 24 hours old is refused (got {status})")
    status, answer = purchase(steps, PRO, offer, token)
    expect(status == 200, f"PromotionalOfferSignatureCreator's signature is accepted (got {status})")
    _, transaction, _ = steps.next("OFFER_REDEEMED", "INITIAL_BUY")
    expect(transaction.offerType == OfferType.PROMOTIONAL_OFFER and transaction.offerIdentifier == HALF
           and transaction.appAccountToken == token,
           "OFFER_REDEEMED INITIAL_BUY: offerType 2, the offer's identifier, the signed appAccountToken")
    status, answer = purchase(steps, PRO, offer, token)
    expect(status == 400 and b"nonce" in answer, f"the same nonce again is refused (got {status})")
    return transaction


def second_form(steps, creator, transaction):
    from appstoreserverlibrary.models.OfferType import OfferType

    steps.control("POST", f"subscriptions/{transaction.transactionId}/expire")
    jws = creator.create_signature(PRO, HALF, transaction.transactionId)
    header, payload, signature = jws.split(".")
    claims = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
    claims["offerIdentifier"] = "pro.monthly.other"
    forged = base64.urlsafe_b64encode(json.dumps(claims).encode()).rstrip(b"=").decode()
    status, answer = purchase(steps, PRO, {"type": "promotional", "id": HALF, "compactJWS": ".".join(
        [header, forged, signature])})
    expect(status == 400 and b"invalidOfferSignature" in answer, f"a tampered JWS is refused (got {status})")
    other = creator.create_signature(PRO_YEARLY, "pro.yearly.loyalty", None)
    status, _ = purchase(steps, PRO, {"type": "promotional", "id": HALF, "compactJWS": other})
    expect(status == 400, f"a JWS for another product is refused (got {status})")
    status, answer = purchase(steps, PRO, {"type": "promotional", "id": HALF, "compactJWS": jws})
    expect(status == 200, f"PromotionalOfferV2SignatureCreator's JWS is accepted (got {status})")
    status, _ = purchase(steps, PRO, {"type": "promotional", "id": HALF, "compactJWS": jws})
    expect(status == 400, f"the same JWS again is refused (its nonce is used) (got {status})")
    # Skip what the expiry announced; the purchase's notification is the OFFER_REDEEMED RESUBSCRIBE.
    notification, redeemed, _ = steps.next_of_type("OFFER_REDEEMED")
    expect(notification.rawSubtype == "RESUBSCRIBE" and redeemed.offerType == OfferType.PROMOTIONAL_OFFER
           and redeemed.offerIdentifier == HALF, "OFFER_REDEEMED RESUBSCRIBE after the JWS form: offerType 2")


def family_sharing(steps):
    from appstoreserverlibrary.models.InAppOwnershipType import InAppOwnershipType
    from appstoreserverlibrary.models.RevocationType import RevocationType
    from appstoreserverlibrary.models.Status import Status

    steps.control("POST", f"subscriptions/{PRO}/expire")
    shared = steps.control("POST", "family-sharing", {"productId": PRO_YEARLY})
    notification, transaction, renewal = steps.next_of_type("SUBSCRIBED")
    expect(transaction.inAppOwnershipType == InAppOwnershipType.FAMILY_SHARED
           and transaction.transactionId == shared["transactionId"]
           and renewal.originalTransactionId == transaction.originalTransactionId,
           "family-share: SUBSCRIBED with a FAMILY_SHARED transaction of the member's own, and its renewal info")
    steps.advance("P1Y")
    _, renewed, _ = steps.next_of_type("DID_RENEW")
    expect(renewed.inAppOwnershipType == InAppOwnershipType.FAMILY_SHARED
           and renewed.originalTransactionId == transaction.originalTransactionId,
           "DID_RENEW of the shared subscription: FAMILY_SHARED, the same originalTransactionId")
    steps.control("POST", f"transactions/{renewed.transactionId}/refund")
    notification, revoked, _ = steps.next_of_type("REVOKE")
    expect(revoked.revocationType == RevocationType.FAMILY_REVOKE and revoked.revocationDate
           and notification.data.status == Status.REVOKED,
           "the purchaser's refund: REVOKE, revocationType FAMILY_REVOKE, status REVOKED")


class OfferSteps(Steps):
    def next_any(self):
        notification = self.verifier.verify_and_decode_notification(self.receiver.next_payload())
        transaction = renewal = None
        if notification.data is not None and notification.data.signedTransactionInfo:
            transaction = self.verifier.verify_and_decode_signed_transaction(notification.data.signedTransactionInfo)
        if notification.data is not None and notification.data.signedRenewalInfo:
            renewal = self.verifier.verify_and_decode_renewal_info(notification.data.signedRenewalInfo)
        return notification, transaction, renewal

    def next_of_type(self, notification_type):
        """The next notification of this type, verified by Apple's library; those before it skipped."""
        while True:
            notification, transaction, renewal = self.next_any()
            if notification.rawNotificationType == notification_type:
                expect(True, f"verify_and_decode_notification accepts {notification_type}")
                return notification, transaction, renewal


def run_checks(store, receiver, _private_pem, _key_id, apple):
    Environment, SignedDataVerifier, _ = apple
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from appstoreserverlibrary.jws_signature_creator import PromotionalOfferV2SignatureCreator
    from appstoreserverlibrary.promotional_offer import PromotionalOfferSignatureCreator

    _, _, root_der = store.request("GET", "/test/v1/root-certificate")
    verifier = SignedDataVerifier([root_der], False, Environment.SANDBOX, BUNDLE_ID, None)
    steps = OfferSteps(store, receiver, verifier, None)
    key = ec.generate_private_key(ec.SECP256R1())
    private_pem = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    public_pem = key.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo).decode()
    status, _ = purchase(steps, PRO, {"type": "promotional", "id": HALF, "keyID": OFFER_KEY_ID,
                                      "nonce": str(uuid.uuid4()), "timestamp": int(time.time() * 1000),
                                      "signature": "AAAA"})
    expect(status == 400, f"before its key is registered, a signature is refused (got {status})")
    steps.control("POST", "offer-keys", {"keyId": OFFER_KEY_ID, "publicKey": public_pem})
    transaction = first_form(steps, PromotionalOfferSignatureCreator(private_pem, OFFER_KEY_ID, BUNDLE_ID))
    second_form(steps, PromotionalOfferV2SignatureCreator(private_pem, OFFER_KEY_ID, "mock-issuer", BUNDLE_ID),
                transaction)
    family_sharing(steps)


def main():
    repository = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    return run_one_store_script(
        __doc__.splitlines()[0], os.path.join(repository, "Tests", "Fixtures", "Subscriptions.storekit"),
        "mockstore-offers-", "MOCKINTEROP4", run_checks,
        "interop: the store accepts promotional offers Apple's library signs, refuses tampered ones, and shares "
        "subscriptions through Family Sharing as Apple does")


if __name__ == "__main__":
    sys.exit(main())
