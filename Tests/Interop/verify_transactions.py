#!/usr/bin/env python3
"""Interop test: Apple's own verifier accepts the mock store's signed transactions.

Starts the real `mockstore` binary on a free port with a fresh data directory, buys a product, and verifies
the signed transaction with Apple's `app-store-server-library` (PyPI, 3.1.2): `SignedDataVerifier` with the
store's test root, Environment.SANDBOX, online checks off, bundle id ai.voicedebrief.app. It also checks that
the same verifier refuses the transaction for another bundle id, and for a root it does not trust.

    python3 Tests/Interop/verify_transactions.py --mockstore .build-mockstore/debug/mockstore

Exits 0 when every check passes, 1 when one fails (saying which and why), 2 when it cannot run (the library
is not installed, the binary is missing or does not start). The store it starts is always stopped.
"""

import argparse
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

BUNDLE_ID = "ai.voicedebrief.app"
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

    def request(self, method, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base_url + path, data=data, method=method)
        if data is not None:
            request.add_header("Content-Type", "application/json")
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
        "POST", "/storekit/v1/purchases", {"productId": PRODUCT_ID, "quantity": 1, "appAccountToken": token}
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


def main():
    repository = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mockstore", required=True, help="path to the built mockstore binary")
    parser.add_argument("--catalogue", default=os.path.join(repository, "Catalogue", "Credit.storekit"),
                        help="the .storekit catalogue (default: the repository's Catalogue/Credit.storekit)")
    arguments = parser.parse_args()
    # Stopped from outside (a CI timeout), still stop the store: SystemExit runs the `with` blocks' cleanup.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))

    try:
        apple = import_apple_library()
        binary = os.path.abspath(arguments.mockstore)
        if not (os.path.isfile(binary) and os.access(binary, os.X_OK)):
            raise CannotRun(f"{arguments.mockstore} is not an executable file; build it with "
                            "swift build --scratch-path .build-mockstore --product mockstore")
        data_dir = tempfile.mkdtemp(prefix="mockstore-interop-")
        try:
            data = os.path.join(data_dir, "data")
            with MockStore(binary, data, arguments.catalogue) as store:
                print(f"mockstore at {store.base_url}")
                run_checks(store, apple)
                _, _, root_der = store.request("GET", "/test/v1/root-certificate")
            # Same data directory, so the same root: only the signing differs.
            with MockStore(binary, data, arguments.catalogue, ["--signing", "none"]) as unsigned:
                print(f"mockstore --signing none at {unsigned.base_url}")
                check_unsigned_is_rejected(unsigned, root_der, apple)
        finally:
            shutil.rmtree(data_dir, ignore_errors=True)
    except CannotRun as error:
        print(f"cannot run the interop test: {error}", file=sys.stderr)
        return 2
    except CheckFailed as error:
        print(f"FAILED: {error}", file=sys.stderr)
        return 1
    print("interop: Apple's SignedDataVerifier accepts the mock store's transactions")
    return 0


if __name__ == "__main__":
    sys.exit(main())
