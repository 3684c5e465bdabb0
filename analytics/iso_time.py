"""The times pnl.sh takes for --as-of: ISO 8601 with a date, a time to the second, a fraction if wanted, and `Z` or
an offset (2026-11-29T12:00:00Z, 2026-11-29T12:00:00.250+01:00). Anything else is refused in plain words.

    python3 analytics/iso_time.py TEXT    prints TEXT as UTC with milliseconds (2026-11-29T11:00:00.250Z), or says
                                          why it is not a time, exit 64
"""

import datetime
import re
import sys

# ASCII digits only ([0-9], not \d, which takes any script's digits).
PATTERN = re.compile(
    r"([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2}):([0-9]{2})(?:\.([0-9]{1,9}))?(Z|[+-][0-9]{2}:[0-9]{2})")
EXAMPLES = "2026-11-29T12:00:00Z, 2026-11-29T12:00:00.000Z or 2026-11-29T13:00:00+01:00"


class NotATime(ValueError):
    """Why a text is not a time pnl.sh takes, in words."""


def parse(text):
    """The UTC moment `text` names, to the millisecond (a finer fraction is cut, not rounded), or NotATime."""
    match = PATTERN.fullmatch(text)
    if not match:
        raise NotATime(
            "is not an ISO 8601 time: give a date, T, a time to the second, a fraction if you like, and Z or an "
            "offset, as in " + EXAMPLES)
    year, month, day, hour, minute, second, fraction, zone = match.groups()
    milliseconds = int((fraction or "").ljust(3, "0")[:3])
    if zone == "Z":
        offset = datetime.timedelta(0)
    else:
        hours, minutes = int(zone[1:3]), int(zone[4:6])
        if hours > 23 or minutes > 59:
            raise NotATime("has an offset of " + zone + ", which no place has (hours up to 23, minutes up to 59)")
        offset = datetime.timedelta(hours=hours, minutes=minutes) * (-1 if zone[0] == "-" else 1)
    try:
        moment = datetime.datetime(
            int(year), int(month), int(day), int(hour), int(minute), int(second), milliseconds * 1000,
            tzinfo=datetime.timezone(offset))
        return moment.astimezone(datetime.timezone.utc)
    except (ValueError, OverflowError):
        raise NotATime("is not a date and time that exists (a month 01 to 12, a day in that month, 00:00:00 to "
                       "23:59:59)") from None


def iso(moment):
    """`moment` (UTC) as the P&L writes times: 2026-11-29T12:00:00.000Z."""
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (moment.microsecond // 1000)


def main():
    if len(sys.argv) != 2:
        sys.stderr.write("usage: python3 analytics/iso_time.py TEXT\n")
        return 64
    try:
        print(iso(parse(sys.argv[1])))
    except NotATime as problem:
        sys.stderr.write("pnl.sh: --as-of \"%s\" %s\n" % (sys.argv[1], problem))
        return 64
    return 0


if __name__ == "__main__":
    sys.exit(main())
