"""The P&L of all accounts as a terminal table: the same text as `credit pnl --summaries DIR` (PnLText in
Sources/credit/CreditCLI+PnL.swift), from the voicedebrief-pnl-v1 shape pnl.py makes. No colour: pnl.sh's output is
for logs and pipes as much as for a terminal."""

TITLES = {"all": "all time", "30d": "the last 30 days", "7d": "the last 7 days"}
HEADINGS = ["Feature", "Charges", "Charged", "Declined", "Share", "Given back", "Net", "Cost*", "Margin*", "Margin %",
            "Stands out"]
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


def row(line):
    marks = (["LOSES MONEY"] if line["losesMoney"] else []) + (["OFTEN DECLINED"] if line["oftenDeclined"] else [])
    share, margin = line["declinedShareBasisPoints"], line["marginBasisPoints"]
    return [
        "Total" if line["feature"] == "total" else line["feature"], str(line["charges"]), money(line["charged"]),
        str(line["declined"]), "-" if share is None else percent(share), money(line["givenBack"]), money(line["net"]),
        money(line["cost"]) + "*", money(line["margin"]) + "*", "-" if margin is None else percent(margin),
        ", ".join(marks),
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
    out.append("%s counted, from %s; %s superseded; %s left out (named above)." % (
        count_noun(accounts, "account", "accounts"), count_noun(counted, "summary", "summaries"),
        count_noun(superseded, "older export", "older exports"), count_noun(left_out, "summary", "summaries")))
    out.append(REGISTRY_CAVEAT)
    return "\n".join(out)
