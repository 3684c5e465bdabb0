import OptionParsing

/// `--days 7|30`: a report of the last 7 or 30 days only.
enum ReportDays: String, ChoiceWords {
    case seven = "7"
    case thirty = "30"

    /// How many days.
    var count: Int { self == .seven ? 7 : 30 }
}
