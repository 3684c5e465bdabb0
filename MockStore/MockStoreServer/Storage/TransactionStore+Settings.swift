import MockStoreSQLite
import StoreWire

/// The runtime settings a test control sets (a storefront, a locale, …).
extension TransactionStore {
    /// A runtime setting (e.g. a storefront chosen by a test control), or `nil` when not set.
    public func setting(_ key: String) throws -> String? {
        try statement("SELECT value FROM settings WHERE key = ?1").query([.text(key)]) { $0.text(at: 0) }.first ?? nil
    }

    /// Sets a runtime setting; `nil` removes it.
    public func setSetting(_ key: String, to value: String?) throws {
        settingsMayHaveChanged?()
        if let value {
            try statement(
                "INSERT INTO settings (key, value) VALUES (?1, ?2) ON CONFLICT (key) DO UPDATE SET value = ?2"
            )
            .run([.text(key), .text(value)])
        } else {
            try statement("DELETE FROM settings WHERE key = ?1").run([.text(key)])
        }
    }

    /// Every runtime setting.
    public func allSettings() throws -> [String: String] {
        let pairs = try statement("SELECT key, value FROM settings ORDER BY key").query { row in
            (row.text(at: 0) ?? "", row.text(at: 1) ?? "")
        }
        return Dictionary(pairs, uniquingKeysWith: { _, last in last })
    }
}
