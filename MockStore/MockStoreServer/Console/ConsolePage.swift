import Foundation
import SafeText
import StoreTestControls
import StoreWire

/// The console's page (`GET /console`): a pure function of a ``ConsoleSnapshot``. Every value from the store's data
/// goes through ``HTMLText``; the page fetches nothing from elsewhere (inline style and script only, allowed by the
/// answer's Content-Security-Policy with a nonce of its own), and its buttons only call the test controls
/// (``TestControls``) with `fetch`, then read the page again and show it.
enum ConsolePage {
    /// The answer's headers: HTML, never cached, and a Content-Security-Policy that lets the page load nothing from
    /// any origin, run only its own inline script and style (`nonce`), and `fetch` only its own store.
    static func headers(nonce: String) -> [(String, String)] {
        [
            ("Content-Type", "text/html; charset=utf-8"),
            ("Cache-Control", "no-store"),
            ("X-Content-Type-Options", "nosniff"),
            ("Referrer-Policy", "no-referrer"),
            ("Content-Security-Policy", contentSecurityPolicy(nonce: nonce)),
        ]
    }

    /// Nothing from anywhere but the nonce's inline style and script, and `fetch` to the page's own origin.
    static func contentSecurityPolicy(nonce: String) -> String {
        "default-src 'none'; script-src 'nonce-\(nonce)'; style-src 'nonce-\(nonce)'; connect-src 'self'; "
            + "img-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    }

    /// The whole page.
    static func html(_ snapshot: ConsoleSnapshot, nonce: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>mockstore console</title>
        <style nonce="\(nonce)">\(ConsoleAssets.style)</style>
        </head>
        <body>
        <header><h1>mockstore console</h1>
        <p class="bar"><button type="button" id="reload">Show again</button> <span id="note" role="status"></span></p>
        </header>
        \(body(snapshot))
        <script nonce="\(nonce)">\(ConsoleAssets.script)</script>
        </body>
        </html>

        """
    }

    /// The part the script reads again after each action: `<main id="store">`.
    static func body(_ snapshot: ConsoleSnapshot) -> String {
        var html = "<main id=\"store\">\n"
        html += clockSection(snapshot.clock)
        html += settingsSection(snapshot.settings)
        for customer in snapshot.customers { html += customerSection(customer, now: snapshot.clock.now) }
        if !snapshot.otherNotifications.isEmpty {
            html += "<section><h2>Other notifications</h2>\n"
            html += notificationTable(snapshot.otherNotifications) + "</section>\n"
        }
        return html + "</main>"
    }

    static func clockSection(_ clock: TestClockBody) -> String {
        let advances = [("PT1H", "1 hour"), ("P1D", "1 day"), ("P7D", "1 week"), ("P1M", "1 month")]
        let buttons = advances.map { duration, words in
            button(
                "Advance \(words)", path: TestControls.advanceClock.path(), customer: nil,
                body: "{\"duration\":\"\(duration)\"}")
        }
        return """
            <section><h2>Clock</h2>
            <p>Now on the store's clock: <b>\(HTMLText.escape(date(clock.now)))</b>. Rate: \
            \(HTMLText.isolated(clock.rate.rawValue)) (\(HTMLText.escape(String(clock.factor))) times real time).</p>
            <p class="actions">\(buttons.joined(separator: " "))</p>
            </section>

            """
    }

    static func settingsSection(_ settings: TestSettingsBody) -> String {
        let failures =
            settings.failures.isEmpty
            ? "none"
            : settings.failures.map { failure in
                HTMLText.isolated(failure.api.rawValue) + " fails with " + HTMLText.isolated(failure.error.rawValue)
                    + (failure.once ? " (once)" : "")
            }.joined(separator: "; ")
        return """
            <section><h2>Settings</h2>
            <ul>
            <li>Ask to Buy: \(onOff(settings.askToBuyEnabled))</li>
            <li>Interrupted purchases: \(onOff(settings.interruptedPurchasesEnabled))</li>
            <li>Storefront: \(HTMLText.isolated(settings.storefront)) (\(HTMLText.isolated(settings.currency)))</li>
            <li>Locale: \(HTMLText.isolated(settings.locale))</li>
            <li>Simulated failures: \(failures)</li>
            </ul>
            </section>

            """
    }

    static func customerSection(_ entry: ConsoleSnapshot.Customer, now: Int64) -> String {
        let customer = entry.customer
        var html = "<section class=\"customer\"><h2>Customer \(HTMLText.isolated(customer.name))"
        html += customer.isDefault ? " (the default customer)" : ""
        html += "</h2>\n<p>Storefront \(HTMLText.isolated(customer.storefront)), app transaction "
        html += "\(HTMLText.isolated(customer.appTransactionId)).</p>\n"
        html += "<h3>Transactions</h3>\n"
        html +=
            entry.transactions.isEmpty
            ? "<p>None.</p>\n" : transactionTable(entry.transactions, customer: customer.name)
        html += "<h3>Subscriptions</h3>\n"
        html +=
            entry.subscriptions.isEmpty
            ? "<p>None.</p>\n" : subscriptionTable(entry.subscriptions, customer: customer.name, now: now)
        html += "<h3>Notifications</h3>\n"
        html += entry.notifications.isEmpty ? "<p>None.</p>\n" : notificationTable(entry.notifications)
        return html + "</section>\n"
    }

    // MARK: Pieces

    /// A button the script sends as `POST path` (with `body`, JSON, when given), acting for `customer`.
    static func button(_ words: String, path: String, customer: String?, body: String? = nil) -> String {
        var html = "<button type=\"button\" data-path=\"\(HTMLText.escape(path))\""
        if let customer { html += " data-customer=\"\(HTMLText.escape(customer))\"" }
        if let body { html += " data-body=\"\(HTMLText.escape(body))\"" }
        return html + ">\(HTMLText.escape(words))</button>"
    }

    /// A table in a box of its own that scrolls sideways when the screen is narrow.
    static func table(_ headings: [String], _ rows: [[String]]) -> String {
        let head = headings.map { "<th scope=\"col\">\($0)</th>" }.joined()
        let body = rows.map { "<tr>" + $0.map { "<td>\($0)</td>" }.joined() + "</tr>" }.joined(separator: "\n")
        return
            "<div class=\"scroll\"><table>\n<thead><tr>\(head)</tr></thead>\n<tbody>\n\(body)\n</tbody></table></div>\n"
    }

    static func onOff(_ on: Bool) -> String { on ? "on" : "off" }

    static func yesNo(_ yes: Bool) -> String { yes ? "yes" : "no" }

    /// A store date (milliseconds since 1970) as ISO 8601 in UTC, to the second.
    static func date(_ milliseconds: Int64) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: Date(timeIntervalSince1970: Double(milliseconds) / 1000))
    }
}
