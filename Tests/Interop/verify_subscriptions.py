#!/usr/bin/env python3
"""Interop test of auto-renewable subscriptions: Apple's own library accepts every step the mock store makes.

Starts the real `mockstore` with the subscriptions fixture, `--api-key` (an ES256 key made here) and `--notify` (a
receiver in this script), and walks a subscription through its life on the virtual clock: first purchase, renewal,
auto-renew off and on, an upgrade, billing retry with a grace period, its expiry and the recovery, a price increase
and consent, a refund and its reversal (auto-renew turned off after each refund and refund request), renewal-date
extensions (one and all), expiry, and resubscribes after a short and a long lapse (recentSubscriptionStartDate);
then a second customer (X-Mock-Customer), whose subscription, notification, statuses and history are their own.
Every notification is checked with Apple's `SignedDataVerifier.verify_and_decode_notification` (Sandbox, online
checks off, the store's root), and its `signedTransactionInfo` and `signedRenewalInfo` with `verify_and_decode_signed_transaction` and
`verify_and_decode_renewal_info`. Apple's `AppStoreServerAPIClient` (its `_base_url` pointed at the store) reads Get
All Subscription Statuses (with a status filter), extends one renewal date, extends all and reads that request's
status, and is refused with Apple's errors.

    python3 Tests/Interop/verify_subscriptions.py --mockstore .build-mockstore/debug/mockstore

Exits 0 when every check passes, 1 when one fails, 2 when it cannot run. Shares its helpers with
verify_transactions.py.
"""

import json
import os
import sys
import uuid

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from verify_transactions import (  # noqa: E402
    BUNDLE_ID, CheckFailed, expect, run_one_store_script)

WEEKLY = "com.example.news.weekly"
BASIC = "com.example.basic.monthly"
PRO = "com.example.pro.monthly"
DAY = 86_400_000


class Steps:
    """The store, the receiver and Apple's verifier and client, and the checks every step shares."""

    def __init__(self, store, receiver, verifier, client):
        self.store = store
        self.receiver = receiver
        self.verifier = verifier
        self.client = client
        # Notifications received before the step that expects them (another subscription's, sent in parallel).
        self.waiting = []

    def control(self, method, path, body=None):
        status, _, answer = self.store.request(method, "/test/v1/" + path, body)
        if not 200 <= status < 300:
            raise CheckFailed(f"control {method} {path} answered {status}: {answer[:300]!r}")
        return json.loads(answer) if answer else {}

    def advance(self, duration):
        return self.control("POST", "clock/advance", {"duration": duration})

    def decoded(self, payload):
        """A notification, its transaction and its renewal info, each verified by Apple's library."""
        notification = self.verifier.verify_and_decode_notification(payload)
        transaction = renewal = None
        if notification.data is not None:
            transaction = self.verifier.verify_and_decode_signed_transaction(notification.data.signedTransactionInfo)
            renewal = self.verifier.verify_and_decode_renewal_info(notification.data.signedRenewalInfo)
            expect(renewal.originalTransactionId == transaction.originalTransactionId,
                   f"{notification.rawNotificationType}: its transaction and renewal info verify and are the same "
                   "subscription")
        return notification, transaction, renewal

    def next(self, notification_type, subtype=None):
        """The next notification of this type and subtype: it, its transaction and renewal info verified by Apple's
        library. The store sends notifications in parallel, in order for each subscription only (as Apple does not
        promise an order between them): one of another subscription, or with none, that comes first is kept for a
        later step; one of the same subscription that comes first is out of order, and fails."""
        while True:
            for index, (notification, transaction, renewal) in enumerate(self.waiting):
                if (notification.rawNotificationType, notification.rawSubtype) != (notification_type, subtype):
                    continue
                mine = transaction.originalTransactionId if transaction is not None else None
                before = [waiting[1].originalTransactionId for waiting in self.waiting[:index]
                          if waiting[1] is not None]
                expect(mine is None or mine not in before,
                       f"verify_and_decode_notification accepts {notification_type} {subtype or ''}".rstrip()
                       + " in its subscription's order")
                del self.waiting[index]
                return notification, transaction, renewal
            self.waiting.append(self.decoded(self.receiver.next_payload()))

    def buy(self, product):
        status, _, body = self.store.request("POST", "/storekit/v1/purchases", {"productId": product})
        expect(status == 200, f"a purchase of {product} (got {status})")
        return self.verifier.verify_and_decode_signed_transaction(json.loads(body)["signedTransaction"])


def lifecycle(steps):
    from appstoreserverlibrary.models.AutoRenewStatus import AutoRenewStatus
    from appstoreserverlibrary.models.ExpirationIntent import ExpirationIntent
    from appstoreserverlibrary.models.OfferDiscountType import OfferDiscountType
    from appstoreserverlibrary.models.OfferType import OfferType
    from appstoreserverlibrary.models.PriceIncreaseStatus import PriceIncreaseStatus
    from appstoreserverlibrary.models.Status import Status
    from appstoreserverlibrary.models.TransactionReason import TransactionReason
    from appstoreserverlibrary.models.Type import Type

    first = steps.buy(WEEKLY)
    expect(first.type == Type.AUTO_RENEWABLE_SUBSCRIPTION and first.expiresDate and first.webOrderLineItemId,
           "the purchase is an Auto-Renewable Subscription with expiresDate and webOrderLineItemId")
    notification, _, renewal = steps.next("SUBSCRIBED", "INITIAL_BUY")
    expect(notification.data.status == Status.ACTIVE and renewal.autoRenewStatus == AutoRenewStatus.ON
           and renewal.renewalDate == first.expiresDate, "SUBSCRIBED INITIAL_BUY: active, auto-renew on, renewalDate")

    steps.advance("P8D")
    _, renewed, _ = steps.next("DID_RENEW")
    expect(renewed.transactionReason == TransactionReason.RENEWAL and renewed.purchaseDate == first.expiresDate,
           "DID_RENEW: transactionReason RENEWAL, the new period starts where the last ended")

    steps.control("POST", f"subscriptions/{first.transactionId}/auto-renew", {"enabled": False})
    _, _, renewal = steps.next("DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_DISABLED")
    expect(renewal.autoRenewStatus == AutoRenewStatus.OFF, "auto-renew off is in the renewal info")
    steps.control("POST", f"subscriptions/{first.transactionId}/auto-renew", {"enabled": True})
    steps.next("DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_ENABLED")

    steps.control("POST", "settings/billing", {"billingRetryOnRenewal": True, "gracePeriodEnabled": True})
    steps.advance("P8D")
    notification, _, renewal = steps.next("DID_FAIL_TO_RENEW", "GRACE_PERIOD")
    expect(notification.data.status == Status.BILLING_GRACE_PERIOD and renewal.isInBillingRetryPeriod is True
           and renewal.gracePeriodExpiresDate == renewed.expiresDate + 6 * DAY,
           "DID_FAIL_TO_RENEW GRACE_PERIOD: status 4, isInBillingRetryPeriod, gracePeriodExpiresDate")
    steps.advance("P7D")
    notification, _, renewal = steps.next("GRACE_PERIOD_EXPIRED")
    expect(notification.data.status == Status.BILLING_RETRY
           and renewal.expirationIntent == ExpirationIntent.BILLING_ERROR,
           "GRACE_PERIOD_EXPIRED: billing retry goes on (status 3, expirationIntent 2)")
    steps.control("POST", "settings/billing", {"billingRetryOnRenewal": False})
    steps.control("POST", f"subscriptions/{first.transactionId}/recover")
    notification, recovered, renewal = steps.next("DID_RENEW", "BILLING_RECOVERY")
    expect(notification.data.status == Status.ACTIVE and renewal.isInBillingRetryPeriod is False
           and recovered.transactionReason == TransactionReason.RENEWAL,
           "DID_RENEW BILLING_RECOVERY: active again, out of billing retry")

    steps.control("POST", f"subscriptions/{first.transactionId}/price-increase", {"price": 2990})
    _, _, renewal = steps.next("PRICE_INCREASE", "PENDING")
    expect(renewal.priceIncreaseStatus == PriceIncreaseStatus.CUSTOMER_HAS_NOT_RESPONDED
           and renewal.renewalPrice == 2990, "PRICE_INCREASE PENDING: priceIncreaseStatus 0, the new renewalPrice")
    steps.control("POST", f"subscriptions/{first.transactionId}/price-increase/consent")
    _, _, renewal = steps.next("PRICE_INCREASE", "ACCEPTED")
    expect(renewal.priceIncreaseStatus == PriceIncreaseStatus.CUSTOMER_CONSENTED_OR_WAS_NOTIFIED_WITHOUT_NEEDING_CONSENT,
           "PRICE_INCREASE ACCEPTED: priceIncreaseStatus 1")
    steps.advance("P8D")
    _, renewed, _ = steps.next("DID_RENEW")
    expect(renewed.price == 2990, f"the renewal after consent is at the new price (got {renewed.price})")

    steps.control("POST", f"transactions/{renewed.transactionId}/refund")
    notification, _, _ = steps.next("REFUND")
    expect(notification.data.status == Status.REVOKED, "REFUND of the period in force: status 5 (revoked)")
    notification, _, renewal = steps.next("DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_DISABLED")
    expect(renewal.autoRenewStatus == AutoRenewStatus.OFF and notification.data.status == Status.REVOKED,
           "after a refund the App Store turns auto-renew off: AUTO_RENEW_DISABLED, autoRenewStatus 0")
    steps.control("POST", f"transactions/{renewed.transactionId}/refund/reverse")
    notification, reinstated, _ = steps.next("REFUND_REVERSED")
    expect(notification.data.status == Status.ACTIVE and reinstated.revocationDate is None,
           "REFUND_REVERSED: active again, the revocation cleared")
    refund_request(steps, reinstated)

    basic = steps.buy(BASIC)
    steps.next("SUBSCRIBED", "INITIAL_BUY")
    steps.buy(PRO)
    _, upgraded, renewal = steps.next("DID_CHANGE_RENEWAL_PREF", "UPGRADE")
    expect(upgraded.originalTransactionId == basic.transactionId and renewal.autoRenewProductId == PRO,
           "DID_CHANGE_RENEWAL_PREF UPGRADE: the same subscription, now Pro")
    status, _, _ = steps.store.request("POST", "/storekit/v1/purchases", {
        "productId": PRO, "offer": {"type": "offerCode", "id": "PRO-MONTH-99"}})
    expect(status == 200, f"a purchase redeeming the offer code PRO-MONTH-99 (got {status})")
    _, _, renewal = steps.next("OFFER_REDEEMED")
    expect(renewal.offerType == OfferType.OFFER_CODE and renewal.offerIdentifier == "PRO-MONTH-99"
           and renewal.offerDiscountType == OfferDiscountType.PAY_AS_YOU_GO and renewal.offerPeriod == "P1M",
           "OFFER_REDEEMED: the renewal info carries offerType 3, offerIdentifier, offerDiscountType, offerPeriod")
    return first, basic


def refund_request(steps, transaction):
    """The customer asks for a refund of a subscription with auto-renew on: CONSUMPTION_REQUEST, then the App Store
    turns auto-renew off; a second request finds it off and says nothing more of it."""
    from appstoreserverlibrary.models.AutoRenewStatus import AutoRenewStatus
    from appstoreserverlibrary.models.Status import Status

    steps.control("POST", f"transactions/{transaction.transactionId}/refund-request")
    steps.next("CONSUMPTION_REQUEST")
    notification, _, renewal = steps.next("DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_DISABLED")
    expect(renewal.autoRenewStatus == AutoRenewStatus.OFF and notification.data.status == Status.ACTIVE,
           "after a refund request the App Store turns auto-renew off: AUTO_RENEW_DISABLED, autoRenewStatus 0")
    steps.control("POST", f"transactions/{transaction.transactionId}/refund-request/decline")
    steps.next("REFUND_DECLINED")
    steps.control("POST", f"transactions/{transaction.transactionId}/refund-request")
    notification, _, renewal = steps.next("CONSUMPTION_REQUEST")
    expect(renewal.autoRenewStatus == AutoRenewStatus.OFF, "a request with auto-renew off already: no change")
    steps.control("POST", f"transactions/{transaction.transactionId}/refund-request/decline")
    steps.next("REFUND_DECLINED")
    steps.control("POST", f"subscriptions/{transaction.transactionId}/auto-renew", {"enabled": True})
    steps.next("DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_ENABLED")


def server_api(steps, first, basic):
    from appstoreserverlibrary.api_client import APIError, APIException
    from appstoreserverlibrary.models.ExtendReasonCode import ExtendReasonCode
    from appstoreserverlibrary.models.ExtendRenewalDateRequest import ExtendRenewalDateRequest
    from appstoreserverlibrary.models.MassExtendRenewalDateRequest import MassExtendRenewalDateRequest
    from appstoreserverlibrary.models.Status import Status

    statuses = steps.client.get_all_subscription_statuses(first.transactionId)
    items = [item for group in statuses.data for item in group.lastTransactions]
    for item in items:
        steps.verifier.verify_and_decode_signed_transaction(item.signedTransactionInfo)
        steps.verifier.verify_and_decode_renewal_info(item.signedRenewalInfo)
    expect(len(statuses.data) == 2 and all(item.status == Status.ACTIVE for item in items),
           "get_all_subscription_statuses: two groups, both active, every signed item verifies")
    filtered = steps.client.get_all_subscription_statuses(first.transactionId, [Status.EXPIRED])
    expect(all(not group.lastTransactions for group in filtered.data),
           "get_all_subscription_statuses with status [EXPIRED] lists none")

    answer = steps.client.extend_subscription_renewal_date(first.transactionId, ExtendRenewalDateRequest(
        extendByDays=5, extendReasonCode=ExtendReasonCode.SERVICE_ISSUE_OR_OUTAGE, requestIdentifier=str(uuid.uuid4())))
    _, extended, renewal = steps.next("RENEWAL_EXTENDED")
    expect(answer.success is True and answer.originalTransactionId == first.transactionId
           and answer.effectiveDate == extended.expiresDate == renewal.renewalDate,
           "extend_subscription_renewal_date succeeds; RENEWAL_EXTENDED carries the new expiresDate")
    for days, error in ((91, APIError.INVALID_EXTEND_BY_DAYS), (0, APIError.INVALID_EXTEND_BY_DAYS)):
        try:
            steps.client.extend_subscription_renewal_date(first.transactionId, ExtendRenewalDateRequest(
                extendByDays=days, extendReasonCode=ExtendReasonCode.OTHER, requestIdentifier="r"))
        except APIException as refused:
            expect(refused.api_error == error and refused.http_status_code == 400,
                   f"extendByDays {days} is refused with APIError.{error.name} (got {refused.raw_api_error})")
        else:
            raise CheckFailed(f"extendByDays {days} was accepted")
    try:
        steps.client.extend_subscription_renewal_date("1", ExtendRenewalDateRequest(
            extendByDays=1, extendReasonCode=ExtendReasonCode.OTHER, requestIdentifier="r"))
    except APIException as refused:
        expect(refused.api_error == APIError.ORIGINAL_TRANSACTION_ID_NOT_FOUND,
               f"an unknown subscription is APIError.ORIGINAL_TRANSACTION_ID_NOT_FOUND (got {refused.raw_api_error})")
    else:
        raise CheckFailed("an unknown original transaction id was extended")
    steps.client.extend_subscription_renewal_date(first.transactionId, ExtendRenewalDateRequest(
        extendByDays=1, extendReasonCode=ExtendReasonCode.OTHER, requestIdentifier=str(uuid.uuid4())))
    steps.next("RENEWAL_EXTENDED")
    try:
        steps.client.extend_subscription_renewal_date(first.transactionId, ExtendRenewalDateRequest(
            extendByDays=1, extendReasonCode=ExtendReasonCode.OTHER, requestIdentifier=str(uuid.uuid4())))
    except APIException as refused:
        # Apple lists "two renewal date extensions within the past 365 days" under SubscriptionExtensionIneligible.
        expect(refused.api_error == APIError.SUBSCRIPTION_EXTENSION_INELIGIBLE and refused.http_status_code == 403,
               f"a third extension in 365 days is APIError.SUBSCRIPTION_EXTENSION_INELIGIBLE "
               f"(got {refused.raw_api_error})")
    else:
        raise CheckFailed("a third extension within 365 days was accepted")

    request_id = str(uuid.uuid4())
    taken = steps.client.extend_renewal_date_for_all_active_subscribers(MassExtendRenewalDateRequest(
        extendByDays=2, extendReasonCode=ExtendReasonCode.CUSTOMER_SATISFACTION, requestIdentifier=request_id,
        productId=PRO, storefrontCountryCodes=["USA"]))
    expect(taken.requestIdentifier == request_id, "extend_renewal_date_for_all_active_subscribers takes the request")
    pending = steps.client.get_status_of_subscription_renewal_date_extensions(request_id, PRO)
    expect(pending.complete is False and pending.completeDate is None and pending.succeededCount is None
           and pending.requestIdentifier == request_id,
           "get_status_of_subscription_renewal_date_extensions: taken, not complete yet")
    steps.advance("PT1H")
    _, extended, _ = steps.next("RENEWAL_EXTENDED")
    expect(extended.originalTransactionId == basic.transactionId, "the Pro subscriber is extended")
    summary, _, _ = steps.next("RENEWAL_EXTENSION", "SUMMARY")
    expect(summary.summary is not None and summary.summary.requestIdentifier == request_id
           and summary.summary.succeededCount == 1 and summary.summary.failedCount == 0
           and summary.summary.productId == PRO and summary.data is None,
           "RENEWAL_EXTENSION SUMMARY: Apple's summary (1 succeeded, 0 failed), no data")
    status = steps.client.get_status_of_subscription_renewal_date_extensions(request_id, PRO)
    expect(status.complete is True and status.succeededCount == 1 and status.failedCount == 0
           and status.completeDate and status.requestIdentifier == request_id,
           "get_status_of_subscription_renewal_date_extensions: complete, 1 succeeded")
    try:
        steps.client.get_status_of_subscription_renewal_date_extensions(str(uuid.uuid4()), PRO)
    except APIException as refused:
        expect(refused.api_error == APIError.STATUS_REQUEST_NOT_FOUND,
               f"an unknown request is APIError.STATUS_REQUEST_NOT_FOUND (got {refused.raw_api_error})")
    else:
        raise CheckFailed("an unknown mass extension request has a status")

    steps.control("POST", f"subscriptions/{first.transactionId}/expire")
    notification, _, renewal = steps.next("EXPIRED", "VOLUNTARY")
    expect(notification.data.status == Status.EXPIRED, "EXPIRED VOLUNTARY: status 2")
    try:
        steps.client.extend_subscription_renewal_date(first.transactionId, ExtendRenewalDateRequest(
            extendByDays=1, extendReasonCode=ExtendReasonCode.OTHER, requestIdentifier="late"))
    except APIException as refused:
        expect(refused.api_error == APIError.SUBSCRIPTION_EXTENSION_INELIGIBLE and refused.http_status_code == 403,
               f"an expired subscription is APIError.SUBSCRIPTION_EXTENSION_INELIGIBLE (got {refused.raw_api_error})")
    else:
        raise CheckFailed("an expired subscription was extended")
    recent_start(steps, first, renewal.recentSubscriptionStartDate)
    long_advance(steps)


def recent_start(steps, first, run_start):
    """recentSubscriptionStartDate ignores lapses of paid service shorter than 10 minutes in the sandbox (Apple's
    JWSRenewalInfoDecodedPayload), as Apple's verifier decodes it: a resubscribe 5 minutes after the expiry keeps
    the run's start; one 10 minutes after the next expiry starts a new run."""
    steps.advance("PT5M")
    again = steps.buy(WEEKLY)
    _, _, renewal = steps.next("SUBSCRIBED", "RESUBSCRIBE")
    expect(renewal.recentSubscriptionStartDate == run_start and again.originalTransactionId == first.transactionId,
           "a lapse of 5 minutes in the sandbox keeps recentSubscriptionStartDate "
           f"(got {renewal.recentSubscriptionStartDate}, the run began {run_start})")
    steps.control("POST", f"subscriptions/{again.transactionId}/expire")
    steps.next("EXPIRED", "VOLUNTARY")
    steps.advance("PT10M")
    later = steps.buy(WEEKLY)
    _, _, renewal = steps.next("SUBSCRIBED", "RESUBSCRIBE")
    expect(renewal.recentSubscriptionStartDate == later.purchaseDate,
           "a lapse of 10 minutes in the sandbox starts a new run: recentSubscriptionStartDate is the purchase "
           f"(got {renewal.recentSubscriptionStartDate}, purchased {later.purchaseDate})")


def long_advance(steps):
    """Past the ten years a test CA used to last: Apple's verifier checks the chain at each signedDate."""
    for each in steps.control("GET", "subscriptions")["subscriptions"]:
        if each["status"] in (1, 3, 4):
            steps.control("POST", f"subscriptions/{each['latestTransactionId']}/expire")
            steps.next("EXPIRED", "VOLUNTARY")
    steps.advance("P50Y")
    transaction = steps.buy("com.example.coins")
    expect(transaction.signedDate > 1_000 * 86_400 * 365 * 80,
           "fifty years on, Apple's verifier still accepts a transaction (the chain checked at its signedDate)")


def two_customers(steps, first):
    """A second customer (X-Mock-Customer): Apple's library verifies their subscription and its notification, and
    the Server API's answers for each customer's transaction hold that customer's alone."""
    from appstoreserverlibrary.api_client import GetTransactionHistoryVersion
    from appstoreserverlibrary.models.TransactionHistoryRequest import TransactionHistoryRequest

    steps.control("POST", "customers", {"name": "interop-bob"})
    status, _, body = steps.store.request(
        "POST", "/storekit/v1/purchases", {"productId": WEEKLY}, headers={"X-Mock-Customer": "interop-bob"})
    expect(status == 200, f"a second customer buys {WEEKLY} (got {status})")
    bob = steps.verifier.verify_and_decode_signed_transaction(json.loads(body)["signedTransaction"])
    expect(bob.appTransactionId and bob.appTransactionId != first.appTransactionId,
           "the second customer's transaction verifies and carries their own appTransactionId")
    # The steps before may leave a one-time charge's notification waiting: the next subscription one is theirs.
    for _ in range(5):
        notification = steps.verifier.verify_and_decode_notification(steps.receiver.next_payload())
        if notification.rawNotificationType == "SUBSCRIBED":
            break
    told = steps.verifier.verify_and_decode_signed_transaction(notification.data.signedTransactionInfo)
    expect(told.originalTransactionId == bob.transactionId and told.appTransactionId == bob.appTransactionId,
           "their SUBSCRIBED notification verifies and names them by Apple's fields only")
    theirs = steps.client.get_all_subscription_statuses(bob.transactionId)
    expect([group.subscriptionGroupIdentifier for group in theirs.data] == [bob.subscriptionGroupIdentifier],
           "get_all_subscription_statuses for the second customer's transaction: their one group only")

    def history(transaction_id):
        answer = steps.client.get_transaction_history(
            transaction_id, None, TransactionHistoryRequest(), GetTransactionHistoryVersion.V2)
        return {steps.verifier.verify_and_decode_signed_transaction(t).transactionId
                for t in answer.signedTransactions}

    bobs, firsts = history(bob.transactionId), history(first.transactionId)
    expect(bobs == {bob.transactionId} and bob.transactionId not in firsts and first.transactionId not in bobs,
           "get_transaction_history: each customer's history holds their own transactions, never the other's")


def run_checks(store, receiver, private_pem, key_id, apple):
    Environment, SignedDataVerifier, _ = apple
    from appstoreserverlibrary.api_client import AppStoreServerAPIClient

    _, _, root_der = store.request("GET", "/test/v1/root-certificate")
    verifier = SignedDataVerifier([root_der], False, Environment.SANDBOX, BUNDLE_ID, None)
    client = AppStoreServerAPIClient(private_pem, key_id, "mock-issuer-id", BUNDLE_ID, Environment.SANDBOX)
    client._base_url = store.base_url
    steps = Steps(store, receiver, verifier, client)
    first, basic = lifecycle(steps)
    server_api(steps, first, basic)
    two_customers(steps, first)
    left = [(n.rawNotificationType, n.rawSubtype) for n, _, _ in steps.waiting]
    expect(not left, f"every notification received was one a step expected (left over: {left})")


def main():
    repository = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    return run_one_store_script(
        __doc__.splitlines()[0], os.path.join(repository, "Tests", "Fixtures", "Subscriptions.storekit"), "mockstore-subscriptions-", "MOCKINTEROP3", run_checks,
        "interop: Apple's library verifies every subscription step and reads the subscription endpoints")


if __name__ == "__main__":
    sys.exit(main())
