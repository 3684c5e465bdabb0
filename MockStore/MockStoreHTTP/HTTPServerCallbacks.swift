import CMicroHTTPD

/// The C callbacks of ``HTTPServer``. libmicrohttpd calls them on its own threads (one per connection), so they
/// are plain nonisolated functions that reach their state only through the pointers they are given: the shared
/// ``ServerContext`` (immutable; its deadlines behind their own lock) and the request's own ``RequestState``,
/// used by its connection's thread alone.
enum HTTPServerCallbacks {
    /// One request's state between calls of the access handler (libmicrohttpd's `con_cls`).
    final class RequestState {
        var headersSeen = false
        var body: [UInt8] = []
        var isTooLarge = false
        var discardedBytes = 0
    }

    static let accessCallback: MHD_AccessHandlerCallback = {
        context, connection, url, method, _, uploadData, uploadDataSize, requestState in
        access(
            context: context, connection: connection, url: url, method: method, uploadData: uploadData,
            uploadDataSize: uploadDataSize, requestState: requestState)
    }

    static let completedCallback: MHD_RequestCompletedCallback = { context, connection, requestState, _ in
        completed(context: context, connection: connection, requestState: requestState)
    }

    /// Called as soon as a request line is in: makes the request's state, and starts its deadline.
    static let requestLineCallback:
        @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, OpaquePointer?) -> UnsafeMutableRawPointer? = {
            context, _, connection in
            guard let context, let connection else { return nil }
            let server = Unmanaged<ServerContext>.fromOpaque(context).takeUnretainedValue()
            server.deadlines.requestLineArrived(CMicroHTTPD_connection_fd(connection))
            return Unmanaged.passRetained(RequestState()).toOpaque()
        }

    /// Called when a connection opens and when it closes (before its socket is closed).
    static let connectionCallback: MHD_NotifyConnectionCallback = { context, connection, _, event in
        guard let context, let connection else { return }
        let server = Unmanaged<ServerContext>.fromOpaque(context).takeUnretainedValue()
        let socket = CMicroHTTPD_connection_fd(connection)
        if CMicroHTTPD_is_opening(event) {
            server.deadlines.opened(socket)
        } else {
            server.deadlines.closed(socket)
        }
    }

    /// The access handler: called once when the headers are in, once per piece of body, and once at the end.
    static func access(
        context: UnsafeMutableRawPointer?, connection: OpaquePointer?, url: UnsafePointer<CChar>?,
        method: UnsafePointer<CChar>?, uploadData: UnsafePointer<CChar>?,
        uploadDataSize: UnsafeMutablePointer<Int>?, requestState: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
    ) -> MHD_Result {
        guard let context, let connection, let uploadDataSize, let requestState else { return .NO }
        let server = Unmanaged<ServerContext>.fromOpaque(context).takeUnretainedValue()
        let limits = server.limits
        if requestState.pointee == nil {
            // The request-line callback always makes it; this is only a safety net.
            requestState.pointee = Unmanaged.passRetained(RequestState()).toOpaque()
        }
        guard let statePointer = requestState.pointee else { return .NO }
        let state = Unmanaged<RequestState>.fromOpaque(statePointer).takeUnretainedValue()

        if !state.headersSeen {
            // First call: only the headers have arrived.
            state.headersSeen = true
            if let declared = lookup(connection, .HEADER_KIND, "Content-Length"), let length = Int(declared),
                length > limits.maxBodyBytes
            {
                // Answer before reading any of it; libmicrohttpd then closes the connection.
                state.isTooLarge = true
                return queue(server.handler.payloadTooLarge(limit: limits.maxBodyBytes), on: connection)
            }
            return .YES
        }

        let pieceSize = uploadDataSize.pointee
        if pieceSize > 0 {
            uploadDataSize.pointee = 0
            if !state.isTooLarge && state.body.count + pieceSize > limits.maxBodyBytes {
                state.isTooLarge = true
                state.body = []
            }
            if state.isTooLarge {
                state.discardedBytes += pieceSize
                // A client that keeps sending is cut off rather than read forever.
                return state.discardedBytes > limits.maxDiscardedBytes ? .NO : .YES
            }
            if let uploadData {
                uploadData.withMemoryRebound(to: UInt8.self, capacity: pieceSize) { bytes in
                    state.body.append(contentsOf: UnsafeBufferPointer(start: bytes, count: pieceSize))
                }
            }
            return .YES
        }

        server.deadlines.requestArrived(CMicroHTTPD_connection_fd(connection))
        if state.isTooLarge {
            return queue(server.handler.payloadTooLarge(limit: limits.maxBodyBytes), on: connection)
        }
        let request = HTTPRequest(
            method: method.map { String(cString: $0) } ?? "",
            path: url.map { String(cString: $0) } ?? "/",
            query: values(of: connection, .GET_ARGUMENT_KIND).map { HTTPRequest.QueryItem($0.0, $0.1) },
            headers: values(of: connection, .HEADER_KIND).map { HTTPHeader($0.0, $0.1 ?? "") },
            body: state.body)
        state.body = []
        return queue(server.handler.respond(to: request), on: connection)
    }

    /// The request-completed callback: frees the request's state; the connection waits for its next request.
    static func completed(
        context: UnsafeMutableRawPointer?, connection: OpaquePointer?,
        requestState: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
    ) {
        if let context, let connection {
            let server = Unmanaged<ServerContext>.fromOpaque(context).takeUnretainedValue()
            server.deadlines.answered(CMicroHTTPD_connection_fd(connection))
        }
        guard let requestState, let statePointer = requestState.pointee else { return }
        Unmanaged<RequestState>.fromOpaque(statePointer).release()
        requestState.pointee = nil
    }

    private static func queue(_ response: HTTPResponse, on connection: OpaquePointer) -> MHD_Result {
        let created = response.body.withUnsafeBytes { bytes in
            MHD_create_response_from_buffer(
                bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), .RESPMEM_MUST_COPY)
        }
        guard let created else { return .NO }
        defer { MHD_destroy_response(created) }
        for header in response.headers {
            guard MHD_add_response_header(created, header.name, header.value) == .YES else { return .NO }
        }
        return MHD_queue_response(connection, UInt32(clamping: response.status), created)
    }

    private static func lookup(_ connection: OpaquePointer, _ kind: MHD_ValueKind, _ key: String) -> String? {
        MHD_lookup_connection_value(connection, kind, key).map { String(cString: $0) }
    }

    /// Every (key, value) of one kind (headers, query arguments), in order.
    private static func values(of connection: OpaquePointer, _ kind: MHD_ValueKind) -> [(String, String?)] {
        final class Collected {
            var pairs: [(String, String?)] = []
        }
        let collected = Collected()
        withExtendedLifetime(collected) {
            _ = MHD_get_connection_values(
                connection, kind,
                { context, _, key, value in
                    guard let context, let key else { return .YES }
                    let collected = Unmanaged<Collected>.fromOpaque(context).takeUnretainedValue()
                    collected.pairs.append((String(cString: key), value.map { String(cString: $0) }))
                    return .YES
                },
                Unmanaged.passUnretained(collected).toOpaque())
        }
        return collected.pairs
    }
}
