import MockStoreSQLite
import StoreWire

/// The simulated StoreKit failures a test control sets.
extension TransactionStore {
    /// The failure set at run time for `api`: `error` nil means "explicitly none" (it overrides the catalogue's).
    func failure(for api: String) throws -> (error: String?, once: Bool)? {
        try statement("SELECT error, once FROM simulated_failures WHERE api = ?1")
            .query([.text(api)]) { ($0.text(at: 0), $0.int64(at: 1) != 0) }.first
    }

    /// Sets (or, with `error` nil, explicitly clears) the failure of `api`.
    func setFailure(for api: String, error: String?, once: Bool) throws {
        settingsMayHaveChanged?()
        try statement(
            """
            INSERT INTO simulated_failures (api, error, once) VALUES (?1, ?2, ?3)
            ON CONFLICT (api) DO UPDATE SET error = ?2, once = ?3
            """
        ).run([.text(api), .optional(error), .integer(once ? 1 : 0)])
    }
}
