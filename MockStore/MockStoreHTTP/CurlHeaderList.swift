import CCurl

/// A libcurl `curl_slist` of request header lines, freed when released.
final class CurlHeaderList {
    private(set) var list: UnsafeMutablePointer<curl_slist>?

    /// The list of `lines` (`Name: value`).
    ///
    /// - Throws: a ``HTTPClient/Failure`` when libcurl cannot allocate it.
    init(_ lines: [String]) throws(HTTPClient.Failure) {
        for line in lines {
            guard let appended = CCurl_slist_append(list, line) else {
                throw HTTPClient.Failure(kind: .other, detail: "curl_slist_append failed")
            }
            list = appended
        }
    }

    deinit {
        CCurl_slist_free_all(list)
    }
}
