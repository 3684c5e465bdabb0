"""The P&L of all accounts as a terminal table: the same text as `credit pnl --summaries DIR` (PnLText in
Sources/credit/CreditCLI+PnL.swift), from the voicedebrief-pnl-v1 shape pnl.py makes. No colour: pnl.sh's output is
for logs and pipes as much as for a terminal."""

import json
import os

TITLES = {"all": "all time", "30d": "the last 30 days", "7d": "the last 7 days"}
HEADINGS = ["Feature", "Charges", "Charged", "Declined", "Share", "Given back", "Net", "Cost*", "Margin*", "Margin %",
            "Stands out"]
# Every feature key's name in the price list's words (VoiceDebriefPrices' labels; a test keeps the two the same).
FEATURE_NAMES = json.load(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "feature_names.json"),
                               encoding="utf-8"))
# The widest a feature's cell is (LedgerCommands.featureCellWidth); a longer one ends with "…", as DisplayText.cell cuts.
FEATURE_CELL_WIDTH = 48
REGISTRY_CAVEAT = ("A summary made up under a new key of its own cannot be told from a real account until there is a "
                   "registry of accounts.")


def count_noun(count, one, many):
    """`1 account`, `1,200 accounts`: as CountNoun says it."""
    return "{:,} {}".format(count, one if count == 1 else many)


def money(micro):
    """Micro-credits as pounds, pence always, exact below a penny, as MicroCredits.formatted: £1,234.50, £0.0096."""
    pounds, micros = divmod(abs(micro), 1_000_000)
    fraction = "%06d" % micros
    while len(fraction) > 2 and fraction.endswith("0"):
        fraction = fraction[:-1]
    return ("-" if micro < 0 else "") + "£" + "{:,}".format(pounds) + "." + fraction


def percent(basis_points):
    """Basis points as a percentage with up to two decimals: 1250 is 12.5%."""
    sign = "-" if basis_points < 0 else ""
    whole, fraction = divmod(abs(basis_points), 100)
    decimals = ("%02d" % fraction).rstrip("0")
    return sign + str(whole) + ("." + decimals if decimals else "") + "%"


def feature_cell(key):
    """A feature for a table cell, as LedgerCommands.featureCell writes it: its name in the price list's words with its key
    beside it (`A transcript (transcript)`), or the key alone when the price list has no name for it. A summary's key
    is printable ASCII (verified), so nothing needs escaping and a character is a byte."""
    name = FEATURE_NAMES.get(key)
    text = key if name is None else "%s (%s)" % (name, key)
    return text if len(text) <= FEATURE_CELL_WIDTH else text[:FEATURE_CELL_WIDTH - 1] + "\u2026"


def row(line):
    marks = (["LOSES MONEY"] if line["losesMoney"] else []) + (["OFTEN DECLINED"] if line["oftenDeclined"] else [])
    share, margin = line["declinedShareBasisPoints"], line["marginBasisPoints"]
    return [
        "Total" if line["feature"] == "total" else feature_cell(line["feature"]), str(line["charges"]),
        money(line["charged"]), str(line["declined"]), "-" if share is None else percent(share),
        money(line["givenBack"]), money(line["net"]), money(line["cost"]) + "*", money(line["margin"]) + "*",
        "-" if margin is None else percent(margin), ", ".join(marks),
    ]


def table(rows, right_aligned, indent="  "):
    """Columns as the credit command lays them out: the last column unpadded, the right-aligned ones padded left."""
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    out = []
    for cells in rows:
        laid = []
        for index, cell in enumerate(cells):
            padding = " " * (widths[index] - len(cell))
            if index in right_aligned:
                laid.append(padding + cell)
            else:
                laid.append(cell if index == len(cells) - 1 else cell + padding)
        out.append(indent + "  ".join(laid))
    return "\n".join(out)


def text(report, period_name, counted, superseded, left_out):
    """One period of `report` as a table, then what was counted and the caveat."""
    period = next(p for p in report["periods"] if p["period"] == period_name)
    accounts = report["accounts"]
    scope = "1 account" if accounts == 1 else "all %d accounts" % accounts
    out = ["Profit and loss by feature, %s, %s" % (TITLES[period_name], scope)]
    if period["total"]["charges"] > 0 or period["features"]:
        rows = [HEADINGS] + [row(line) for line in period["features"]] + [row(period["total"])]
        out.append(table(rows, set(range(1, 10))))
        if report["costsArePlaceholders"]:
            out.append("* Every cost is a placeholder, as every price is, and so is every margin made from one.")
        out.append("Costs count every charge, declined or not. LOSES MONEY: a margin below zero; OFTEN DECLINED: "
                   "%s of its charges or more declined." % percent(report["oftenDeclinedBasisPoints"]))
    else:
        out.append("  Nothing charged yet.")
    if period.get("money") is not None:
        out.append(money_text(period["money"], "%s, %s" % (TITLES[period_name], scope)))
    out.append("%s counted, from %s; %s superseded; %s" % (
        count_noun(accounts, "account", "accounts"), count_noun(counted, "summary", "summaries"),
        count_noun(superseded, "older export", "older exports"),
        "none left out." if left_out == 0 else count_noun(left_out, "summary", "summaries")
        + " left out (named above)."))
    out.append(REGISTRY_CAVEAT)
    return "\n".join(out)


MONEY_HEADINGS = ["Currency", "Top-ups", "Gross paid", "Tax", "Commission", "Proceeds", "Refunded", "Reinstated",
                  "Kept", "Tax unknown"]


def amount(micro, currency):
    """Money in micro-units of its currency, as CurrencyAmount.formatted: £3.541667, USD 4.99, -EUR 0.01."""
    pounds = money(micro)
    return pounds if currency == "GBP" else pounds.replace("£", currency + " ")


def proceeds_unknown(line):
    """Every top-up of the currency from a storefront whose tax is unknown: shown as "-", as PnLMoneyText does."""
    return line["topUps"] > 0 and line["taxUnknownTopUps"] == line["topUps"]


def money_row(line):
    currency = line["currency"]
    unknown = proceeds_unknown(line)
    tax_unknown = "-" if line["taxUnknownTopUps"] == 0 else "%d (%s paid)" % (
        line["taxUnknownTopUps"], amount(line["taxUnknownGross"], currency))
    return [currency, str(line["topUps"]), amount(line["gross"], currency)] + [
        "-" if unknown else amount(line[key], currency)
        for key in ("tax", "commission", "proceeds", "refunded", "reinstated", "kept")
    ] + [tax_unknown]


def money_features(line):
    currency = line["currency"]
    rows = [["Feature", "Credit used", "Proceeds", "Cost*", "Margin*"]]
    for feature in line["features"]:
        rows.append([
            feature_cell(feature["feature"]), money(feature["used"]), amount(feature["proceeds"], currency),
            "-" if feature["cost"] is None else money(feature["cost"]) + "*",
            "-" if feature["margin"] is None else amount(feature["margin"], currency) + "*",
        ])
    return ("  Proceeds by feature in %s: the proceeds kept, shared out by each feature's share of the credit used "
            "(not money a feature earned).\n" % currency + table(rows, set(range(1, 5))))


def money_text(section, title):
    """A period's money section, as PnLMoneyText (Sources/credit/PnLMoneyText.swift) writes it."""
    out = ["Money, " + title]
    if section["accountsWithoutMoney"] > 0:
        out.append("  %s whose summaries carry no money (exported before money was summarised): left out of the "
                   "money; export again to count them." % count_noun(section["accountsWithoutMoney"], "account",
                                                                      "accounts"))
    if section["currencies"]:
        out.append(table([MONEY_HEADINGS] + [money_row(line) for line in section["currencies"]], set(range(1, 9))))
    else:
        out.append("  No money taken.")
    out.append("  Top-ups with no money taken (simulated): %d." % section["simulatedTopUps"])
    credit = section["credit"]
    out.append("  Credit: sold %s, given free %s, simulated %s, taken back %s, reinstated %s, used %s." % (
        money(credit["sold"]), money(credit["givenFree"]), money(credit["simulated"]), money(credit["takenBack"]),
        money(credit["reinstated"]), money(credit["used"])))
    out.append("  Credit outstanding %s (balances above zero: still to be spent); below zero %s in %s (used and not "
               "paid for)." % (money(credit["outstanding"]), money(credit["belowZero"]),
                               count_noun(credit["accountsBelowZero"], "account", "accounts")))
    for line in section["currencies"]:
        if line["features"] and not proceeds_unknown(line):
            out.append(money_features(line))
    commission = section["commission"]
    named = ("Commission %s (%s)" % (percent(commission["basisPoints"]), commission["name"])
             if commission else "Commissions differ between accounts")
    out.append(named + " of the price less its tax; tax by storefront from the app's table; "
               + ("every money setting is a placeholder. " if section["placeholders"] else "")
               + "Each currency is shown in its own, never converted; a storefront whose tax is not in the table is "
               "counted as paid, its proceeds not worked out. Costs and margins in pounds only.")
    return "\n".join(out)
