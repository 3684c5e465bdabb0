#!/usr/bin/env python3
"""Interop test of partial refunds: Apple's own library accepts the mock store's prorated REFUND notifications.

Starts the real `mockstore` (with `--api-key` and `--notify`, a receiver in this script), buys a product, refunds
half of it (`POST /test/v1/transactions/{id}/refund` with `revocationPercentage` 50000, what `mockstore control
refund ID --percentage 50` sends) and checks with Apple's `SignedDataVerifier` (Sandbox, online checks off, the
store's root) that the REFUND notification and its signed transaction verify and carry `revocationType`
REFUND_PRORATED and `revocationPercentage` 50000. Then a refund request answered through Apple's
`AppStoreServerAPIClient.send_consumption_information` with GRANT_PRORATED and a consumption of 25%: a REFUND of
the unconsumed 75% (75000).

    python3 Tests/Interop/verify_prorated_refund.py --mockstore .build-mockstore/debug/mockstore

Exits 0 when every check passes, 1 when one fails, 2 when it cannot run. Shares its helpers with
verify_transactions.py.
"""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from verify_transactions import (  # noqa: E402
    BUNDLE_ID, PRODUCT_ID, expect, run_one_store_script)


def bought(store, verifier):
    status, _, body = store.request("POST", "/storekit/v1/purchases", {"productId": PRODUCT_ID})
    expect(status == 200, f"a purchase to refund (got {status})")
    transaction_id = verifier.verify_and_decode_signed_transaction(json.loads(body)["signedTransaction"]).transactionId
    store.request("POST", f"/storekit/v1/transactions/{transaction_id}/finish", {})
    return transaction_id


def next_notification(receiver, verifier):
    """The next notification other than a purchase's ONE_TIME_CHARGE (each of those verified too), decoded."""
    while True:
        notification = verifier.verify_and_decode_notification(receiver.next_payload())
        if notification.rawNotificationType != "ONE_TIME_CHARGE":
            return notification


def refund_notification(receiver, verifier, transaction_id):
    """The next notification: a REFUND of `transaction_id`, verified; returns its decoded transaction."""
    notification = next_notification(receiver, verifier)
    expect(notification.rawNotificationType == "REFUND",
           f"verify_and_decode_notification accepts the REFUND ({notification.rawNotificationType})")
    decoded = verifier.verify_and_decode_signed_transaction(notification.data.signedTransactionInfo)
    expect(decoded.transactionId == transaction_id and decoded.revocationDate is not None,
           "its signed transaction verifies and is the refunded one")
    return decoded


def run_checks(store, receiver, private_pem, key_id, apple):
    Environment, SignedDataVerifier, VerificationException = apple
    from appstoreserverlibrary.api_client import AppStoreServerAPIClient
    from appstoreserverlibrary.models.ConsumptionRequest import ConsumptionRequest
    from appstoreserverlibrary.models.DeliveryStatus import DeliveryStatus
    from appstoreserverlibrary.models.RefundPreference import RefundPreference
    from appstoreserverlibrary.models.RevocationType import RevocationType

    _, _, root_der = store.request("GET", "/test/v1/root-certificate")
    verifier = SignedDataVerifier([root_der], False, Environment.SANDBOX, BUNDLE_ID, None)

    half = bought(store, verifier)
    status, _, _ = store.request("POST", f"/test/v1/transactions/{half}/refund", {"revocationPercentage": 50000})
    expect(status == 200, f"the refund control with revocationPercentage 50000 answers 200 (got {status})")
    decoded = refund_notification(receiver, verifier, half)
    expect(decoded.revocationType == RevocationType.REFUND_PRORATED and decoded.revocationPercentage == 50000,
           f"the prorated REFUND's transaction carries REFUND_PRORATED and 50000 "
           f"({decoded.rawRevocationType}, {decoded.revocationPercentage})")

    client = AppStoreServerAPIClient(private_pem, key_id, "mock-issuer-id", BUNDLE_ID, Environment.SANDBOX)
    client._base_url = store.base_url
    info = verifier.verify_and_decode_signed_transaction(client.get_transaction_info(half).signedTransactionInfo)
    expect(info.rawRevocationType == "REFUND_PRORATED" and info.revocationPercentage == 50000,
           "get_transaction_info returns the prorated refund, and it verifies")

    asked = bought(store, verifier)
    store.request("POST", f"/test/v1/transactions/{asked}/refund-request", {})
    request = next_notification(receiver, verifier)
    expect(request.rawNotificationType == "CONSUMPTION_REQUEST", "the refund request sends CONSUMPTION_REQUEST")
    client.send_consumption_information(asked, ConsumptionRequest(
        customerConsented=True, sampleContentProvided=False, deliveryStatus=DeliveryStatus.DELIVERED,
        consumptionPercentage=25000, refundPreference=RefundPreference.GRANT_PRORATED))
    granted = refund_notification(receiver, verifier, asked)
    expect(granted.rawRevocationType == "REFUND_PRORATED" and granted.revocationPercentage == 75000,
           f"GRANT_PRORATED with 25% consumed refunds the unconsumed 75% "
           f"({granted.rawRevocationType}, {granted.revocationPercentage})")


def main():
    repository = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    return run_one_store_script(
        __doc__.splitlines()[0], os.path.join(repository, "Catalogue", "Credit.storekit"), "mockstore-prorated-", "MOCKINTEROP2", run_checks,
        "interop: Apple's SignedDataVerifier accepts the store's prorated REFUND notifications and transactions")


if __name__ == "__main__":
    sys.exit(main())
