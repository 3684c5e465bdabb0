"""The money section of each period (JSON key `money`), from pnl.sql's money_* rows: the same figures as Swift's
MoneyTally.period (Sources/LedgerMoney/MoneyTally+Period.swift). The arithmetic done here: each money row's tax,
commission and proceeds, worked out from its gross with the app's table of tax by storefront (storefront_tax.json,
VoiceDebriefMoney.taxByStorefront, kept the same by a test) and its summary's commission, never the figures the row
claims, as Swift's StorefrontTax does; and each feature's share of the proceeds, from the exact sums. Each is
rounded to the nearest micro-unit with a half away from zero, as MoneySplit.rounded rounds."""

import json
import os

CREDIT_CURRENCY = "GBP"  # micro-credits are millionths of a pound: the only currency of costs and margins
FEATURE_METHOD = "share-of-credit-used"
TAX_BY_STOREFRONT = json.load(
    open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "storefront_tax.json"), encoding="utf-8"))


def rounded(value, numerator, denominator):
    """value × numerator / denominator to the nearest whole number, a half away from zero (denominator above 0)."""
    negative = (value < 0) != (numerator < 0)
    quotient, remainder = divmod(abs(value) * abs(numerator), denominator)
    if remainder >= denominator - remainder:
        quotient += 1
    return -quotient if negative else quotient


def split(gross, storefront, commission_basis_points):
    """A money row's (tax known, tax, commission, proceeds) as MoneySplit(gross:taxBasisPoints:commissionBasisPoints:)
    works them out; a storefront the table lacks is tax unknown: nothing but the gross."""
    tax_basis_points = TAX_BY_STOREFRONT.get(storefront)
    if tax_basis_points is None:
        return False, 0, 0, 0
    tax = rounded(gross, tax_basis_points, 10000 + tax_basis_points)
    commission = rounded(gross - tax, commission_basis_points, 10000)
    return True, tax, commission, gross - tax - commission


def currency_kinds(rows, period):
    """{currency: {kind: (count, gross, tax, commission, proceeds, tax_unknown_count, tax_unknown_gross)}} of
    `period`, from money_currencies' rows (each a gross of `row_count` rows with the same storefront and commission)."""
    by_currency = {}
    for (p, currency, kind, storefront, commission, gross, row_count, count) in rows:
        if p != period:
            continue
        known, tax, commission_part, proceeds = split(int(gross), storefront, int(commission))
        rows_of_it = int(row_count)
        unknown = kind == "sale" and not known
        added = (int(count), int(gross) * rows_of_it, tax * rows_of_it, commission_part * rows_of_it,
                 proceeds * rows_of_it, int(count) if unknown else 0, int(gross) * rows_of_it if unknown else 0)
        kinds = by_currency.setdefault(currency, {})
        kinds[kind] = tuple(a + b for a, b in zip(kinds.get(kind, (0,) * 7), added))
    return by_currency


def currency_line(currency, kinds, features, total_used):
    def figure(kind, index):
        return int(kinds[kind][index]) if kind in kinds else 0

    # kinds[kind] = (count, gross, tax, commission, proceeds, tax_unknown_count, tax_unknown_gross)
    kept = figure("sale", 4) - figure("refund", 4) + figure("reinstatement", 4)
    lines = []
    for feature, used, cost in features:
        proceeds = rounded(kept, used, total_used) if total_used > 0 else 0
        in_pounds = currency == CREDIT_CURRENCY
        lines.append({
            "feature": feature, "used": used, "proceeds": proceeds, "cost": cost if in_pounds else None,
            "margin": proceeds - cost if in_pounds else None,
        })
    return {
        "currency": currency, "topUps": figure("sale", 0), "gross": figure("sale", 1), "tax": figure("sale", 2),
        "commission": figure("sale", 3), "proceeds": figure("sale", 4), "refunds": figure("refund", 0),
        "refundedGross": figure("refund", 1), "refunded": figure("refund", 4),
        "reinstatements": figure("reinstatement", 0), "reinstated": figure("reinstatement", 4), "kept": kept,
        "taxUnknownTopUps": figure("sale", 5), "taxUnknownGross": figure("sale", 6), "features": lines,
    }


def section(results, period):
    """The money section of `period` ('all', '30d', '7d') from the statements' rows in `results`."""
    counted, without, placeholders = results["money_accounts"][0]
    commissions = results["money_commissions"]
    outstanding, below_zero, accounts_below_zero = results["money_balances"][0]
    credit = {kind: (int(count), int(amount)) for (p, kind, count, amount) in results["money_credit"] if p == period}
    features = [(f, int(used), int(cost)) for (p, f, used, cost) in results["money_features"] if p == period]
    features.sort(key=lambda item: (-item[1], item[0]))
    total_used = sum(used for _, used, _ in features)
    by_currency = currency_kinds(results["money_currencies"], period)
    return {
        "commission": {"name": commissions[0][0], "basisPoints": int(commissions[0][1])}
        if len(commissions) == 1 else None,
        "placeholders": bool(placeholders), "accountsCounted": int(counted), "accountsWithoutMoney": int(without),
        "featureMethod": FEATURE_METHOD, "simulatedTopUps": credit.get("noMoneyTaken", (0, 0))[0],
        "credit": {
            "sold": credit.get("sold", (0, 0))[1], "simulated": credit.get("noMoneyTaken", (0, 0))[1],
            "givenFree": credit.get("givenFree", (0, 0))[1], "takenBack": credit.get("takenBack", (0, 0))[1],
            "reinstated": credit.get("reinstated", (0, 0))[1], "used": total_used,
            "outstanding": int(outstanding), "belowZero": int(below_zero),
            "accountsBelowZero": int(accounts_below_zero),
        },
        "currencies": [
            currency_line(currency, by_currency[currency], features, total_used) for currency in sorted(by_currency)
        ],
    }
