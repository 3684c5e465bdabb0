#!/usr/bin/env python3
"""Interop test: Apple's own library accepts the mock store's transactions, notifications and Server API.

Starts the real `mockstore` binary on a free port with a fresh data directory, buys a product, and verifies
the signed transaction with Apple's `app-store-server-library` (PyPI, 3.1.2): `SignedDataVerifier` with the
store's test root, Environment.SANDBOX, online checks off, bundle id ai.voicedebrief.app. It also checks that
the same verifier refuses the transaction for another bundle id, and for a root it does not trust.

Then, with the store started with `--api-key` (an ES256 key made here with `cryptography`) and `--notify` (a
receiver in this script): Apple's `AppStoreServerAPIClient`, its `_base_url` pointed at the store, reads
transaction info, history (v2), refund history and an order, sends consumption information (v1 and v2),
requests a test notification and reads its status; the verifier's `verify_and_decode_notification` accepts
the TEST and REFUND notifications the store POSTs.

    python3 Tests/Interop/verify_transactions.py --mockstore .build-mockstore/debug/mockstore

Exits 0 when every check passes, 1 when one fails (saying which and why), 2 when it cannot run (the library
is not installed, the binary is missing or does not start). The store it starts is always stopped.
"""

import argparse
import base64
import hashlib
import http.server
import json
import os
import queue
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
import uuid
import warnings

BUNDLE_ID = "ai.voicedebrief.app"
APP_APPLE_ID = 1234567890
DEVICE_ID = "5c4f0a2e-9d6b-4c1e-8f3a-2b7d9e1c4a60"
PRODUCT_ID = "ai.voicedebrief.app.credit.500"
START_TIMEOUT = 30.0


class CheckFailed(Exception):
    """A check did not hold: the interop test fails."""


class CannotRun(Exception):
    """The test cannot run here (missing library or binary)."""


def import_apple_library():
    try:
        from appstoreserverlibrary.models.Environment import Environment
        from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier, VerificationException
    except ImportError as error:
        raise CannotRun(
            f"Apple's app-store-server-library is not installed ({error}); "
            "install it with: python3 -m pip install app-store-server-library==3.1.2"
        ) from error
    return Environment, SignedDataVerifier, VerificationException


class MockStore:
    """The mockstore process: started on port 0, stopped with SIGTERM (then SIGKILL) whatever happens."""

    def __init__(self, binary, data_dir, catalogue, extra_arguments=()):
        self.binary = binary
        self.data_dir = data_dir
        self.catalogue = catalogue
        self.extra_arguments = list(extra_arguments)
        self.process = None
        self.base_url = None

    def __enter__(self):
        command = [self.binary, "--port", "0", "--data", self.data_dir, "--catalogue", self.catalogue]
        command += self.extra_arguments
        self.process = subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True
        )
        lines = queue.Queue()
        threading.Thread(target=lambda: lines.put(self.process.stdout.readline()), daemon=True).start()
        try:
            line = lines.get(timeout=START_TIMEOUT)
        except queue.Empty:
            self.__exit__(None, None, None)
            raise CannotRun(f"mockstore printed nothing within {START_TIMEOUT:.0f} s")
        prefix = "mockstore listening on "
        if not line.startswith(prefix):
            self.__exit__(None, None, None)
            raise CannotRun(f"mockstore did not start: stdout {line!r}, stderr {self.stderr_text()!r}")
        self.base_url = line[len(prefix):].strip()
        return self

    def stderr_text(self):
        if self.process and self.process.poll() is not None and self.process.stderr:
            return self.process.stderr.read()
        return ""

    def __exit__(self, *exc):
        if self.process is None:
            return False
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        for stream in (self.process.stdout, self.process.stderr):
            if stream:
                stream.close()
        return False

    def request(self, method, path, body=None, headers=None):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base_url + path, data=data, method=method)
        if data is not None:
            request.add_header("Content-Type", "application/json")
        for name, value in (headers or {}).items():
            request.add_header(name, value)
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return response.status, response.headers.get("Content-Type"), response.read()
        except urllib.error.HTTPError as error:
            return error.code, error.headers.get("Content-Type"), error.read()


def expect(condition, message):
    if not condition:
        raise CheckFailed(message)
    print(f"ok: {message}")


def run_checks(store, apple):
    Environment, SignedDataVerifier, VerificationException = apple

    status, content_type, root_der = store.request("GET", "/test/v1/root-certificate")
    expect(status == 200 and content_type == "application/pkix-cert" and root_der[:1] == b"\x30",
           f"GET /test/v1/root-certificate is a DER certificate (status {status}, {content_type})")

    token = str(uuid.uuid4())
    status, content_type, body = store.request(
        "POST", "/storekit/v1/purchases", {"productId": PRODUCT_ID, "quantity": 1, "appAccountToken": token},
        headers={"X-Device-Verification-ID": DEVICE_ID},
    )
    expect(status == 200 and content_type == "application/json",
           f"POST /storekit/v1/purchases answers 200 application/json (got {status}, {content_type})")
    purchase = json.loads(body)
    expect(purchase.get("result") == "success" and purchase.get("signedTransaction"),
           f"the purchase succeeds with a signed transaction (got {purchase.get('result')!r})")
    jws = purchase["signedTransaction"]

    verifier = SignedDataVerifier([root_der], False, Environment.SANDBOX, BUNDLE_ID, None)
    try:
        decoded = verifier.verify_and_decode_signed_transaction(jws)
    except VerificationException as error:
        raise CheckFailed(f"Apple's SignedDataVerifier rejected the store's transaction: {error.status.name}")
    expect(True, "Apple's SignedDataVerifier (Sandbox, online checks off, the store's root) accepts the transaction")
    expect(decoded.bundleId == BUNDLE_ID, f"bundleId is {BUNDLE_ID} (got {decoded.bundleId})")
    expect(decoded.productId == PRODUCT_ID, f"productId is {PRODUCT_ID} (got {decoded.productId})")
    expect(decoded.transactionId == decoded.originalTransactionId and decoded.transactionId.isdigit(),
           f"transactionId {decoded.transactionId} is numeric and equals originalTransactionId")
    expect(decoded.price == 5000 and decoded.currency == "GBP",
           f"price 5000 GBP milliunits (got {decoded.price} {decoded.currency})")
    expect(decoded.quantity == 1, f"quantity 1 (got {decoded.quantity})")
    expect(str(decoded.appAccountToken) == token, f"appAccountToken echoed (got {decoded.appAccountToken})")
    expect(decoded.rawType == "Consumable", f"type Consumable (got {decoded.rawType})")
    expect(decoded.rawEnvironment == "Sandbox", f"environment Sandbox (got {decoded.rawEnvironment})")
    expect(decoded.rawInAppOwnershipType == "PURCHASED",
           f"inAppOwnershipType PURCHASED (got {decoded.rawInAppOwnershipType})")
    expect(decoded.rawTransactionReason == "PURCHASE",
           f"transactionReason PURCHASE (got {decoded.rawTransactionReason})")
    expect(decoded.storefront == "GBR", f"storefront GBR (got {decoded.storefront})")
    expect(decoded.appTransactionId and decoded.appTransactionId.isdigit(),
           f"the transaction carries the customer's appTransactionId (got {decoded.appTransactionId})")
    payload = jws_payload(jws)
    expect(payload.get("deviceVerification") == device_verification(payload.get("deviceVerificationNonce", "")),
           "deviceVerification is base64(SHA-384(deviceVerificationNonce + the device id sent))")
    expect(jws_header(jws).keys() == {"alg", "x5c"}, f"the JWS header is {{alg, x5c}} (got {sorted(jws_header(jws))})")

    status, _, body = store.request("GET", "/storekit/v1/app-transaction", headers={"X-Device-Verification-ID": DEVICE_ID})
    signed_app = json.loads(body)["signedAppTransaction"] if status == 200 else ""
    try:
        app = verifier.verify_and_decode_app_transaction(signed_app)
    except VerificationException as error:
        raise CheckFailed(f"verify_and_decode_app_transaction rejected the device's AppTransaction: {error.status.name}")
    expect(app.appTransactionId == decoded.appTransactionId and app.bundleId == BUNDLE_ID
           and app.rawReceiptType == "Sandbox" and app.rawOriginalPlatform == "iOS"
           and app.applicationVersion and app.originalApplicationVersion and app.originalPurchaseDate
           and app.receiptCreationDate and app.appAppleId is None,
           "verify_and_decode_app_transaction accepts the device API's AppTransaction, with Apple's fields")
    app_payload = jws_payload(signed_app)
    expect(isinstance(app_payload.get("signedDate"), int), "the AppTransaction carries signedDate")
    expect(app_payload.get("deviceVerification") == device_verification(app_payload.get("deviceVerificationNonce", "")),
           "the AppTransaction's deviceVerification is computed as Apple documents")

    status, _, body = store.request("GET", "/storekit/v1/transactions/unfinished")
    unfinished = json.loads(body).get("signedTransactions", []) if status == 200 else []
    expect(len(unfinished) == 1, f"the purchase is listed as unfinished (got {len(unfinished)})")
    again = verifier.verify_and_decode_signed_transaction(unfinished[0])
    expect(again.transactionId == decoded.transactionId,
           "the unfinished list's transaction verifies too and is the same transaction")

    wrong_bundle = SignedDataVerifier([root_der], False, Environment.SANDBOX, "com.example.other", None)
    try:
        wrong_bundle.verify_and_decode_signed_transaction(jws)
    except VerificationException as error:
        expect(error.status.name == "INVALID_APP_IDENTIFIER",
               f"a verifier for another bundle id rejects it with INVALID_APP_IDENTIFIER (got {error.status.name})")
    else:
        raise CheckFailed("a verifier for another bundle id ACCEPTED the transaction")

    stranger_root = other_root_der()
    if stranger_root is not None:
        stranger = SignedDataVerifier([stranger_root], False, Environment.SANDBOX, BUNDLE_ID, None)
        try:
            stranger.verify_and_decode_signed_transaction(jws)
        except VerificationException as error:
            expect(True, f"a verifier trusting another root rejects it ({error.status.name})")
        else:
            raise CheckFailed("a verifier trusting another root ACCEPTED the transaction")

    status, _, _ = store.request("POST", f"/storekit/v1/transactions/{decoded.transactionId}/finish", {})
    expect(status == 200, f"finishing the transaction answers 200 (got {status})")


def jws_parts(jws):
    def decode(part):
        return json.loads(base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)))
    header, payload, _ = jws.split(".")
    return decode(header), decode(payload)


def jws_header(jws):
    return jws_parts(jws)[0]


def jws_payload(jws):
    return jws_parts(jws)[1]


def device_verification(nonce):
    """Apple's AppStore.deviceVerificationID check: SHA-384 of the lowercased nonce then the lowercased id."""
    return base64.b64encode(hashlib.sha384((nonce.lower() + DEVICE_ID.lower()).encode()).digest()).decode()


def check_unsigned_is_rejected(store, root_der, apple):
    """A store started with --signing none hands out alg "none" transactions: Apple's verifier must refuse them."""
    Environment, SignedDataVerifier, VerificationException = apple
    status, _, body = store.request("POST", "/storekit/v1/purchases", {"productId": PRODUCT_ID})
    expect(status == 200, f"the unsigned store sells too (got {status})")
    jws = json.loads(body)["signedTransaction"]
    verifier = SignedDataVerifier([root_der], False, Environment.SANDBOX, BUNDLE_ID, None)
    try:
        verifier.verify_and_decode_signed_transaction(jws)
    except VerificationException as error:
        expect(True, f"an unsigned (alg none) transaction is rejected ({error.status.name})")
    else:
        raise CheckFailed("Apple's verifier ACCEPTED an unsigned (alg none) transaction")


def other_root_der():
    """A self-signed P-256 certificate that has nothing to do with the store (from `cryptography`, which the
    Apple library depends on), or None if it cannot be made."""
    try:
        import datetime
        from cryptography import x509
        from cryptography.hazmat.primitives import hashes, serialization
        from cryptography.hazmat.primitives.asymmetric import ec
        from cryptography.x509.oid import NameOID
    except ImportError:
        return None
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "Unrelated Root")])
    now = datetime.datetime.now(datetime.timezone.utc)
    certificate = (
        x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
        .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=30))
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    return certificate.public_bytes(serialization.Encoding.DER)


class Receiver:
    """A notification receiver: a threaded HTTP server on 127.0.0.1 that queues every POSTed body and answers 200."""

    def __init__(self):
        self.bodies = queue.Queue()
        self.skipped = []
        received = self.bodies

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                length = int(self.headers.get("Content-Length") or 0)
                received.put(self.rfile.read(length))
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/notifications"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def next_payload(self, timeout=15.0):
        try:
            body = self.bodies.get(timeout=timeout)
        except queue.Empty:
            raise CheckFailed(f"no notification reached the receiver within {timeout:.0f} s")
        return json.loads(body)["signedPayload"]

    def next_of(self, verifier, notification_type, timeout=15.0):
        """The next notification of this type, verified; others before it are skipped (and kept in `skipped`)."""
        deadline = time.monotonic() + timeout
        while True:
            decoded = verifier.verify_and_decode_notification(self.next_payload(max(0.1, deadline - time.monotonic())))
            if decoded.rawNotificationType == notification_type:
                return decoded
            self.skipped.append(decoded)

    def close(self):
        self.server.shutdown()
        self.server.server_close()


def make_api_key(directory):
    """An ES256 key as App Store Connect hands out (.p8, PKCS#8 PEM); its public half for --api-key."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    key = ec.generate_private_key(ec.SECP256R1())
    private_pem = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    public_path = os.path.join(directory, "api-key.pub.pem")
    with open(public_path, "wb") as handle:
        handle.write(key.public_key().public_bytes(
            serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo))
    return private_pem, public_path


def run_server_api_checks(store, receiver, private_pem, key_id, root_der, apple):
    Environment, SignedDataVerifier, VerificationException = apple
    from appstoreserverlibrary.api_client import (
        APIError, APIException, AppStoreServerAPIClient, GetTransactionHistoryVersion)
    from appstoreserverlibrary.models.ConsumptionRequest import ConsumptionRequest
    from appstoreserverlibrary.models.AccountTenure import AccountTenure
    from appstoreserverlibrary.models.ConsumptionRequestV1 import ConsumptionRequestV1
    from appstoreserverlibrary.models.ConsumptionStatus import ConsumptionStatus
    from appstoreserverlibrary.models.DeliveryStatusV1 import DeliveryStatusV1
    from appstoreserverlibrary.models.LifetimeDollarsPurchased import LifetimeDollarsPurchased
    from appstoreserverlibrary.models.LifetimeDollarsRefunded import LifetimeDollarsRefunded
    from appstoreserverlibrary.models.Platform import Platform
    from appstoreserverlibrary.models.PlayTime import PlayTime
    from appstoreserverlibrary.models.RefundPreferenceV1 import RefundPreferenceV1
    from appstoreserverlibrary.models.UserStatus import UserStatus
    from appstoreserverlibrary.models.DeliveryStatus import DeliveryStatus
    from appstoreserverlibrary.models.OrderLookupStatus import OrderLookupStatus
    from appstoreserverlibrary.models.RefundPreference import RefundPreference
    from appstoreserverlibrary.models.SendAttemptResult import SendAttemptResult
    from appstoreserverlibrary.models.TransactionHistoryRequest import Order, ProductType, TransactionHistoryRequest

    verifier = SignedDataVerifier([root_der], False, Environment.SANDBOX, BUNDLE_ID, None)
    client = AppStoreServerAPIClient(private_pem, key_id, "mock-issuer-id", BUNDLE_ID, Environment.SANDBOX)
    client._base_url = store.base_url

    status, _, body = store.request("POST", "/storekit/v1/purchases", {"productId": PRODUCT_ID})
    expect(status == 200, f"a second purchase for the Server API checks (got {status})")
    jws = json.loads(body)["signedTransaction"]
    transaction_id = verifier.verify_and_decode_signed_transaction(jws).transactionId
    store.request("POST", f"/storekit/v1/transactions/{transaction_id}/finish", {})

    info = client.get_transaction_info(transaction_id)
    decoded = verifier.verify_and_decode_signed_transaction(info.signedTransactionInfo)
    expect(decoded.transactionId == transaction_id,
           "AppStoreServerAPIClient.get_transaction_info reads a finished transaction, and it verifies")

    history = client.get_transaction_history(
        transaction_id, None,
        TransactionHistoryRequest(sort=Order.ASCENDING, revoked=False, productTypes=[ProductType.CONSUMABLE]),
        GetTransactionHistoryVersion.V2)
    ids = [verifier.verify_and_decode_signed_transaction(t).transactionId for t in history.signedTransactions]
    expect(transaction_id in ids and len(ids) == 2 and history.hasMore is False and history.revision,
           f"get_transaction_history (v2, filters, sort) lists both transactions, hasMore false (got {len(ids)})")
    expect(history.environment == Environment.SANDBOX and history.bundleId == BUNDLE_ID,
           f"the history names the Sandbox environment and the bundle ({history.rawEnvironment}, {history.bundleId})")
    later = client.get_transaction_history(transaction_id, history.revision, TransactionHistoryRequest(),
                                           GetTransactionHistoryVersion.V2)
    expect(later.signedTransactions == [], "the history's revision resumes after the last page")

    status, _, body = store.request("GET", "/test/v1/transactions")
    order_id = [t for t in json.loads(body)["transactions"] if t["transactionId"] == transaction_id][0]["orderId"]
    order = client.look_up_order_id(order_id)
    expect(order.status == OrderLookupStatus.VALID and len(order.signedTransactions) == 1,
           f"look_up_order_id({order_id}) is VALID with its transaction")

    client.send_consumption_information(transaction_id, ConsumptionRequest(
        customerConsented=True, sampleContentProvided=False, deliveryStatus=DeliveryStatus.DELIVERED,
        consumptionPercentage=50000, refundPreference=RefundPreference.DECLINE))
    expect(True, "send_consumption_information (v2) is accepted without an error")
    with warnings.catch_warnings():  # v1 is deprecated in favour of v2; the store serves both
        warnings.simplefilter("ignore", DeprecationWarning)
        client.send_consumption_data(transaction_id, ConsumptionRequestV1(
            customerConsented=True, consumptionStatus=ConsumptionStatus.FULLY_CONSUMED, platform=Platform.APPLE,
            sampleContentProvided=False, deliveryStatus=DeliveryStatusV1.DELIVERED_AND_WORKING_PROPERLY,
            appAccountToken="", accountTenure=AccountTenure.ZERO_TO_THREE_DAYS,
            playTime=PlayTime.FIVE_TO_SIXTY_MINUTES, lifetimeDollarsRefunded=LifetimeDollarsRefunded.ZERO_DOLLARS,
            lifetimeDollarsPurchased=LifetimeDollarsPurchased.ZERO_DOLLARS, userStatus=UserStatus.ACTIVE,
            refundPreference=RefundPreferenceV1.PREFER_DECLINE))
    expect(True, "send_consumption_data (v1) is accepted without an error")
    status, _, body = store.request("GET", "/test/v1/consumption")
    recorded = json.loads(body)["consumption"]
    expect([r["apiVersion"] for r in recorded] == ["v2", "v1"], "the store recorded both consumption reports")

    try:
        client.get_transaction_info("2000000999999999")
    except APIException as error:
        expect(error.api_error == APIError.TRANSACTION_ID_NOT_FOUND and error.http_status_code == 404,
               f"an unknown transaction is APIError.TRANSACTION_ID_NOT_FOUND (got {error.raw_api_error})")
    else:
        raise CheckFailed("an unknown transaction id was found")
    with tempfile.TemporaryDirectory(prefix="stranger-") as stranger_dir:
        stranger_pem, _ = make_api_key(stranger_dir)
    stranger = AppStoreServerAPIClient(stranger_pem, key_id, "mock-issuer-id", BUNDLE_ID, Environment.SANDBOX)
    stranger._base_url = store.base_url
    try:
        stranger.get_transaction_info(transaction_id)
    except APIException as error:
        expect(error.http_status_code == 401, f"a token signed by another key gets 401 (got {error.http_status_code})")
    else:
        raise CheckFailed("a token signed by an unknown key was accepted")

    charge = receiver.next_of(verifier, "ONE_TIME_CHARGE")
    charged = verifier.verify_and_decode_signed_transaction(charge.data.signedTransactionInfo)
    expect(charge.data.rawEnvironment == "Sandbox" and charge.data.appAppleId is None and charge.rawSubtype is None
           and charged.rawType == "Consumable",
           "verify_and_decode_notification accepts ONE_TIME_CHARGE with the purchase's transaction (Sandbox, no "
           "appAppleId)")

    token = client.request_test_notification().testNotificationToken
    notification = receiver.next_of(verifier, "TEST")
    expect(notification.rawNotificationType == "TEST" and notification.version == "2.0",
           "verify_and_decode_notification accepts the TEST notification the store POSTed")
    for _ in range(100):
        attempts = client.get_test_notification_status(token).sendAttempts or []
        if attempts:
            break
        time.sleep(0.05)
    expect([a.sendAttemptResult for a in attempts] == [SendAttemptResult.SUCCESS],
           "get_test_notification_status lists the attempt as SUCCESS")

    status, _, _ = store.request("POST", f"/test/v1/transactions/{transaction_id}/refund", {"revocationReason": 1})
    expect(status == 200, f"the refund control answers 200 (got {status})")
    refund = receiver.next_of(verifier, "REFUND")
    refunded = verifier.verify_and_decode_signed_transaction(refund.data.signedTransactionInfo)
    expect(refund.rawNotificationType == "REFUND" and refunded.transactionId == transaction_id
           and refunded.revocationDate is not None and refunded.rawRevocationReason == 1,
           "verify_and_decode_notification accepts REFUND; its transaction carries revocationDate and reason 1")
    expect(refund.data.rawEnvironment == "Sandbox" and refund.data.bundleId == BUNDLE_ID
           and refund.data.appAppleId is None,
           "the notification's data names Sandbox and the bundle, and leaves appAppleId out as the sandbox does")
    refunds = client.get_refund_history(transaction_id, None)
    expect([verifier.verify_and_decode_signed_transaction(t).transactionId for t in refunds.signedTransactions]
           == [transaction_id], "get_refund_history lists the refunded transaction")

    status, _, _ = store.request("POST", f"/test/v1/transactions/{ids[0]}/refund-request",
                                 {"consumptionRequestReason": "FULFILLMENT_ISSUE"})
    request = receiver.next_of(verifier, "CONSUMPTION_REQUEST")
    expect(request.rawNotificationType == "CONSUMPTION_REQUEST"
           and request.data.rawConsumptionRequestReason == "FULFILLMENT_ISSUE",
           "verify_and_decode_notification accepts CONSUMPTION_REQUEST with its reason")

    run_app_transaction_and_token_checks(client, verifier, transaction_id, apple)
    run_notification_history_checks(client, verifier, transaction_id)


def run_app_transaction_and_token_checks(client, verifier, transaction_id, apple):
    Environment, SignedDataVerifier, VerificationException = apple
    from appstoreserverlibrary.api_client import APIError, APIException
    from appstoreserverlibrary.models.UpdateAppAccountTokenRequest import UpdateAppAccountTokenRequest

    info = client.get_app_transaction_info(transaction_id)
    app = verifier.verify_and_decode_app_transaction(info.signedAppTransactionInfo)
    transaction = verifier.verify_and_decode_signed_transaction(client.get_transaction_info(transaction_id)
                                                                .signedTransactionInfo)
    expect(app.appTransactionId == transaction.appTransactionId and app.rawReceiptType == "Sandbox",
           "get_app_transaction_info answers signedAppTransactionInfo; verify_and_decode_app_transaction accepts it")
    expect("deviceVerification" not in jws_payload(info.signedAppTransactionInfo),
           "the Server API's AppTransaction has no device fields")

    token = str(uuid.uuid4())
    client.set_app_account_token(transaction_id, UpdateAppAccountTokenRequest(appAccountToken=token))
    updated = verifier.verify_and_decode_signed_transaction(client.get_transaction_info(transaction_id)
                                                            .signedTransactionInfo)
    expect(str(updated.appAccountToken) == token,
           "set_app_account_token sets the token; get_transaction_info then carries it")
    for bad, wanted, status in ((transaction_id, APIError.INVALID_APP_ACCOUNT_TOKEN_UUID_ERROR, 400),
                                ("2000000999999999", APIError.ORIGINAL_TRANSACTION_ID_NOT_FOUND, 404),
                                (str(app.appTransactionId), APIError.APP_TRANSACTION_ID_NOT_SUPPORTED_ERROR, 400)):
        try:
            client.set_app_account_token(bad, UpdateAppAccountTokenRequest(
                appAccountToken="not-a-uuid" if bad == transaction_id else token))
        except APIException as error:
            expect(error.api_error == wanted and error.http_status_code == status,
                   f"set_app_account_token refuses with APIError.{wanted.name} (got {error.raw_api_error})")
        else:
            raise CheckFailed(f"set_app_account_token accepted what Apple refuses with {wanted.name}")

    from appstoreserverlibrary.api_client import GetTransactionHistoryVersion
    from appstoreserverlibrary.models.TransactionHistoryRequest import TransactionHistoryRequest
    by_app = client.get_transaction_history(str(app.appTransactionId), None, TransactionHistoryRequest(),
                                            GetTransactionHistoryVersion.V2)
    listed = [verifier.verify_and_decode_signed_transaction(t).transactionId for t in by_app.signedTransactions]
    expect(transaction_id in listed,
           "get_transaction_history takes the appTransactionId (anyTransactionId) and lists the customer's")
    refunds = client.get_refund_history(str(app.appTransactionId), None)
    expect(refunds.signedTransactions is not None, "get_refund_history takes the appTransactionId too")


def run_notification_history_checks(client, verifier, transaction_id):
    from appstoreserverlibrary.api_client import APIError, APIException
    from appstoreserverlibrary.models.NotificationHistoryRequest import NotificationHistoryRequest
    from appstoreserverlibrary.models.NotificationTypeV2 import NotificationTypeV2
    from appstoreserverlibrary.models.SendAttemptResult import SendAttemptResult

    now = int(time.time() * 1000)
    for _ in range(100):
        everything = client.get_notification_history(None, NotificationHistoryRequest(
            startDate=now - 3_600_000, endDate=now + 60_000))
        if all(item.sendAttempts for item in everything.notificationHistory):
            break
        time.sleep(0.05)
    kinds = [verifier.verify_and_decode_notification(item.signedPayload).rawNotificationType
             for item in everything.notificationHistory]
    expect({"ONE_TIME_CHARGE", "TEST", "REFUND", "CONSUMPTION_REQUEST"} <= set(kinds) and not everything.hasMore,
           f"get_notification_history lists every notification the store sent ({kinds})")
    expect(all([a.sendAttemptResult for a in item.sendAttempts] == [SendAttemptResult.SUCCESS]
               for item in everything.notificationHistory),
           "each history item's sendAttempts is one SUCCESS")
    charges = client.get_notification_history(None, NotificationHistoryRequest(
        startDate=now - 3_600_000, endDate=now + 60_000, notificationType=NotificationTypeV2.ONE_TIME_CHARGE))
    expect(len(charges.notificationHistory) == 2 and all(
        verifier.verify_and_decode_notification(i.signedPayload).rawNotificationType == "ONE_TIME_CHARGE"
        for i in charges.notificationHistory), "the notificationType filter keeps the two ONE_TIME_CHARGEs")
    failures = client.get_notification_history(None, NotificationHistoryRequest(
        startDate=now - 3_600_000, endDate=now + 60_000, onlyFailures=True))
    expect(failures.notificationHistory == [], "onlyFailures: none failed")
    customer = client.get_notification_history(None, NotificationHistoryRequest(
        startDate=now - 3_600_000, endDate=now + 60_000, transactionId=transaction_id))
    expect(len(customer.notificationHistory) == len(kinds) - 1, "the transactionId filter keeps the customer's (no TEST)")
    bad = (
        (NotificationHistoryRequest(startDate=now - 31 * 86_400_000, endDate=now), APIError.START_DATE_TOO_FAR_IN_PAST),
        (NotificationHistoryRequest(startDate=now, endDate=now - 1000), APIError.START_DATE_AFTER_END_DATE),
        (NotificationHistoryRequest(startDate=now - 1000, endDate=now, transactionId=transaction_id,
                                    notificationType=NotificationTypeV2.REFUND), APIError.MULTIPLE_FILTERS_SUPPLIED),
    )
    for request, wanted in bad:
        try:
            client.get_notification_history(None, request)
        except APIException as error:
            expect(error.api_error == wanted and error.http_status_code == 400,
                   f"get_notification_history refuses with APIError.{wanted.name} (got {error.raw_api_error})")
        else:
            raise CheckFailed(f"get_notification_history accepted what Apple refuses with {wanted.name}")


def run_production_checks(store, receiver, root_der, apple):
    """A store started with --environment production: notifications and app transactions carry appAppleId and
    Apple's production verifier (which checks it) accepts them."""
    Environment, SignedDataVerifier, VerificationException = apple
    verifier = SignedDataVerifier([root_der], False, Environment.PRODUCTION, BUNDLE_ID, APP_APPLE_ID)
    status, _, body = store.request("POST", "/storekit/v1/purchases", {"productId": PRODUCT_ID})
    expect(status == 200, f"the production store sells (got {status})")
    decoded = verifier.verify_and_decode_signed_transaction(json.loads(body)["signedTransaction"])
    expect(decoded.rawEnvironment == "Production", "a production transaction says environment Production")
    charge = receiver.next_of(verifier, "ONE_TIME_CHARGE")
    expect(charge.data.appAppleId == APP_APPLE_ID and charge.data.rawEnvironment == "Production",
           "verify_and_decode_notification (Production, appAppleId checked) accepts ONE_TIME_CHARGE")
    status, _, body = store.request("GET", "/storekit/v1/app-transaction")
    app = verifier.verify_and_decode_app_transaction(json.loads(body)["signedAppTransaction"])
    expect(app.appAppleId == APP_APPLE_ID and app.rawReceiptType == "Production",
           "verify_and_decode_app_transaction (Production) accepts the AppTransaction with its appAppleId")


def exit_status(body, passed):
    """Runs `body()` and gives the script's exit status: 0 (printing `passed`), 1 on a failed check, 2 when it
    cannot run."""
    try:
        body()
    except CannotRun as error:
        print(f"cannot run the interop test: {error}", file=sys.stderr)
        return 2
    except CheckFailed as error:
        print(f"FAILED: {error}", file=sys.stderr)
        return 1
    print(passed)
    return 0


def checked_binary(path, hint=""):
    """The absolute path of the mockstore binary at `path`; CannotRun when it is not an executable file."""
    binary = os.path.abspath(path)
    if not (os.path.isfile(binary) and os.access(binary, os.X_OK)):
        raise CannotRun(f"{path} is not an executable file{hint}")
    return binary


def run_one_store_script(description, default_catalogue, prefix, key_id, run_checks, passed):
    """The main of a script that checks one store with a notification receiver and a Server API key:
    `run_checks(store, receiver, private_pem, key_id, apple)`; exit 0 with `passed`, 1 on a failed check, 2 when
    it cannot run."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--mockstore", required=True, help="path to the built mockstore binary")
    parser.add_argument("--catalogue", default=default_catalogue)
    arguments = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))

    def body():
        apple = import_apple_library()
        binary = checked_binary(arguments.mockstore)
        data_dir = tempfile.mkdtemp(prefix=prefix)
        receiver = Receiver()
        try:
            private_pem, public_path = make_api_key(data_dir)
            extra = ["--api-key", f"{key_id}={public_path}", "--notify", receiver.url]
            with MockStore(binary, os.path.join(data_dir, "data"), arguments.catalogue, extra) as store:
                run_checks(store, receiver, private_pem, key_id, apple)
        finally:
            receiver.close()
            shutil.rmtree(data_dir, ignore_errors=True)

    return exit_status(body, passed)


def main():
    repository = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mockstore", required=True, help="path to the built mockstore binary")
    parser.add_argument("--catalogue", default=os.path.join(repository, "Catalogue", "Credit.storekit"),
                        help="the .storekit catalogue (default: the repository's Catalogue/Credit.storekit)")
    arguments = parser.parse_args()
    # Stopped from outside (a CI timeout), still stop the store: SystemExit runs the `with` blocks' cleanup.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))

    def body():
        apple = import_apple_library()
        binary = checked_binary(arguments.mockstore, "; build it with "
                                "swift build --scratch-path .build-mockstore --product mockstore")
        data_dir = tempfile.mkdtemp(prefix="mockstore-interop-")
        receiver = Receiver()
        try:
            data = os.path.join(data_dir, "data")
            private_pem, public_path = make_api_key(data_dir)
            key_id = "MOCKINTEROP1"
            extra = ["--api-key", f"{key_id}={public_path}", "--notify", receiver.url, "--notify-retry-base-ms", "50"]
            with MockStore(binary, data, arguments.catalogue, extra) as store:
                print(f"mockstore at {store.base_url}")
                run_checks(store, apple)
                _, _, root_der = store.request("GET", "/test/v1/root-certificate")
                run_server_api_checks(store, receiver, private_pem, key_id, root_der, apple)
            with MockStore(binary, data, arguments.catalogue,
                           ["--environment", "production", "--app-apple-id", str(APP_APPLE_ID),
                            "--notify", receiver.url]) as production:
                print(f"mockstore --environment production at {production.base_url}")
                run_production_checks(production, receiver, root_der, apple)
            # Same data directory, so the same root: only the signing differs.
            with MockStore(binary, data, arguments.catalogue, ["--signing", "none"]) as unsigned:
                print(f"mockstore --signing none at {unsigned.base_url}")
                check_unsigned_is_rejected(unsigned, root_der, apple)
        finally:
            receiver.close()
            shutil.rmtree(data_dir, ignore_errors=True)

    return exit_status(body, "interop: Apple's SignedDataVerifier accepts the mock store's transactions and "
                       "notifications; its AppStoreServerAPIClient works against the store")


if __name__ == "__main__":
    sys.exit(main())
