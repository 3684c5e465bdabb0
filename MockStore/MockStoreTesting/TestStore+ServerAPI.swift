extension TestStore {
    /// The store's App Store Server API, typed (``ServerAPIClient``): every request signed with the key the store
    /// was started with (``Options/bearerTokens``) for ``bundleID``.
    ///
    /// ```swift
    /// let info = try await store.serverAPI.transactionInfo(bought.transaction.transactionId)
    /// ```
    public var serverAPI: ServerAPIClient {
        ServerAPIClient(baseURL: url, token: apiKey.token(bundleID: bundleID), http: http)
    }
}
