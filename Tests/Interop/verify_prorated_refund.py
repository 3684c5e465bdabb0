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

import argparse
import json
import os
import shutil
import signal
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from verify_transactions import (  # noqa: E402
    BUNDLE_ID, PRODUCT_ID, CannotRun, CheckFailed, MockStore, Receiver, expect, import_apple_library, make_api_key)


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
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mockstore", required=True, help="path to the built mockstore binary")
    parser.add_argument("--catalogue", default=os.path.join(repository, "Catalogue", "Credit.storekit"))
    arguments = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    try:
        apple = import_apple_library()
        binary = os.path.abspath(arguments.mockstore)
        if not (os.path.isfile(binary) and os.access(binary, os.X_OK)):
            raise CannotRun(f"{arguments.mockstore} is not an executable file")
        data_dir = tempfile.mkdtemp(prefix="mockstore-prorated-")
        receiver = Receiver()
        try:
            private_pem, public_path = make_api_key(data_dir)
            key_id = "MOCKINTEROP2"
            extra = ["--api-key", f"{key_id}={public_path}", "--notify", receiver.url]
            with MockStore(binary, os.path.join(data_dir, "data"), arguments.catalogue, extra) as store:
                run_checks(store, receiver, private_pem, key_id, apple)
        finally:
            receiver.close()
            shutil.rmtree(data_dir, ignore_errors=True)
    except CannotRun as error:
        print(f"cannot run the interop test: {error}", file=sys.stderr)
        return 2
    except CheckFailed as error:
        print(f"FAILED: {error}", file=sys.stderr)
        return 1
    print("interop: Apple's SignedDataVerifier accepts the store's prorated REFUND notifications and transactions")
    return 0


if __name__ == "__main__":
    sys.exit(main())
