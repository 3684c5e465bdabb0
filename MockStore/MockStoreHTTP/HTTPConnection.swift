import CCurl
import Foundation

/// One libcurl easy handle: requests made through it one after another reuse its connection (keep-alive), as a
/// browser or StoreKit does. Not for concurrent use: one connection per thread.
public final class HTTPConnection {
    /// libcurl's global state, set up once for the whole process before the first handle.
    private static let globalSetup: CURLcode = CCurl_global_init()

    private let handle: UnsafeMutableRawPointer
    /// Where libcurl explains a failure (CURL_ERROR_SIZE bytes, for the handle's lifetime).
    private let errorBuffer: UnsafeMutablePointer<CChar>
    private let certificates: HTTPClient.TrustedCertificates?
    /// Connections opened so far: 1 after any number of requests to one server that keeps its connections alive.
    public private(set) var connectionsOpened = 0
    /// What an empty request body points at: libcurl reads the body from stdin when the pointer is NULL.
    private let emptyBody: UnsafeMutableRawPointer

    /// A connection that trusts `certificates` for `https://` (the system's CAs when nil).
    ///
    /// - Throws: a ``HTTPClient/Failure`` of kind ``HTTPClient/Failure/Kind/other`` when libcurl cannot start.
    public init(trusting certificates: HTTPClient.TrustedCertificates? = nil) throws(HTTPClient.Failure) {
        guard Self.globalSetup == CURLE_OK else {
            let loading = String(cString: CCurl_load_error())
            throw HTTPClient.Failure(
                kind: .other,
                detail: loading.isEmpty
                    ? "curl_global_init failed: \(String(cString: CCurl_easy_strerror(Self.globalSetup)))"
                    : "libcurl could not be loaded (it sends notifications): \(loading)")
        }
        guard let handle = CCurl_easy_init() else {
            throw HTTPClient.Failure(kind: .other, detail: "curl_easy_init failed")
        }
        self.handle = handle
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        emptyBody = .allocate(byteCount: 1, alignment: 1)
        self.certificates = certificates
    }

    deinit {
        CCurl_easy_cleanup(handle)
        errorBuffer.deallocate()
        emptyBody.deallocate()
    }

    /// Sends one request and waits, at most `timeout` seconds in all (connecting included), for the whole
    /// response. `maxBodyBytes`: the most of the response's body read; a longer body is cut there, the rest left
    /// unread (the connection is then closed, not reused), and the response, its status included, is returned with
    /// ``HTTPClient/Response/isBodyCut`` set.
    public func send(
        _ method: String, _ url: String, headers: [HTTPHeader] = [], body: [UInt8] = [], timeout: TimeInterval = 10,
        maxBodyBytes: Int = .max
    ) throws(HTTPClient.Failure) -> HTTPClient.Response {
        _ = try HTTPClient.Target(url)
        // Reset clears the options of the last request but keeps its connection open for this one.
        CCurl_easy_reset(handle)
        errorBuffer[0] = 0
        let received = ResponseCollector(bodyLimit: maxBodyBytes)
        let headerList = try CurlHeaderList(Self.requestHeaders(headers, hasBody: !body.isEmpty))
        let code = withExtendedLifetime((received, headerList)) {
            body.withUnsafeBytes { bytes -> CURLcode in
                let context = Unmanaged.passUnretained(received).toOpaque()
                let options = [
                    CCurl_set_error_buffer(handle, errorBuffer),
                    CCurl_set_no_signal(handle),
                    CCurl_set_web_protocols_only(handle),
                    CCurl_set_url(handle, url),
                    setMethod(method, body: bytes),
                    CCurl_set_headers(handle, headerList.list),
                    CCurl_set_timeout_ms(handle, max(1, Int(timeout * 1_000))),
                    CCurl_set_write_function(handle, ResponseCollector.bodyCallback, context),
                    CCurl_set_header_function(handle, ResponseCollector.headerCallback, context),
                    trustCertificates(),
                ]
                if let failed = options.first(where: { $0 != CURLE_OK }) { return failed }
                return CCurl_easy_perform(handle)
            }
        }
        // A body cut at the limit is a whole answer as far as the caller is concerned: its status decides.
        guard code == CURLE_OK || (code == CURLE_WRITE_ERROR && received.isBodyCut) else {
            throw HTTPClient.Failure(
                kind: HTTPClient.Failure.kind(of: code, receivedAny: received.receivedAny), detail: explain(code, url),
                isNoConnection: code == CURLE_COULDNT_CONNECT)
        }
        var status = 0
        let statusCode = CCurl_response_code(handle, &status)
        guard statusCode == CURLE_OK, (100...599).contains(status) else {
            throw HTTPClient.Failure(kind: .invalidResponse, detail: "no HTTP status from \(url)")
        }
        var opened = 0
        if CCurl_new_connections(handle, &opened) == CURLE_OK {
            connectionsOpened += opened
        }
        return HTTPClient.Response(
            status: status, headers: received.headers, body: received.body, isBodyCut: received.isBodyCut)
    }

    /// GET without a body; any other method as given, with its body (even an empty one for POST and PUT, so
    /// `Content-Length: 0` is sent as servers expect).
    private func setMethod(_ method: String, body: UnsafeRawBufferPointer) -> CURLcode {
        if method == "GET" && body.isEmpty { return CCurl_set_get(handle) }
        let named = CCurl_set_method(handle, method)
        guard named == CURLE_OK else { return named }
        if body.isEmpty && method != "POST" && method != "PUT" && method != "PATCH" { return CURLE_OK }
        return CCurl_set_body(handle, body.baseAddress ?? UnsafeRawPointer(emptyBody), body.count)
    }

    private func trustCertificates() -> CURLcode {
        guard let certificates else { return CURLE_OK }
        return certificates.pem.withUnsafeBytes { CCurl_set_ca_pem(handle, $0.baseAddress, $0.count) }
    }

    /// The caller's headers, without libcurl's defaults that would change the request: no `Expect:
    /// 100-continue`, and no form `Content-Type` on a body the caller did not type.
    private static func requestHeaders(_ headers: [HTTPHeader], hasBody: Bool) -> [String] {
        var lines = headers.filter { $0.name.lowercased() != "content-length" }.map { "\($0.name): \($0.value)" }
        lines.append("Expect:")
        if !headers.contains(where: { $0.name.lowercased() == "content-type" }) {
            lines.append("Content-Type:")
        }
        return lines
    }

    private func explain(_ code: CURLcode, _ url: String) -> String {
        let detail = String(cString: errorBuffer)
        return "\(url): " + (detail.isEmpty ? String(cString: CCurl_easy_strerror(code)) : detail)
    }
}
