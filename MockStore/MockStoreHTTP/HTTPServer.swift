import CMicroHTTPD
import Foundation
import Synchronization

/// An HTTP/1.1 server on GNU libmicrohttpd, answering every request with an ``HTTPHandler``.
///
/// libmicrohttpd runs a thread per connection (`MHD_USE_THREAD_PER_CONNECTION`, polling with `poll`), up to
/// ``Limits/connectionLimit`` of them, plus one thread that accepts: the handler is called on the connection's
/// thread, so requests on different connections are handled at the same time, and a handler that waits (for a
/// commit, say) holds up only its own connection. The handler must therefore be safe to call concurrently.
/// A request body is read in pieces into a per-request buffer (kept in libmicrohttpd's `con_cls` slot,
/// freed when the request completes) and never beyond ``Limits/maxBodyBytes``.
public final class HTTPServer: Sendable {
    /// Bounds that keep a bad client from exhausting the process.
    public struct Limits: Sendable, Equatable {
        /// The largest request body accepted; larger ones get ``HTTPHandler/payloadTooLarge(limit:)``.
        public var maxBodyBytes: Int
        /// How much of an oversized body (sent without a `Content-Length`) is read and dropped before the
        /// connection is closed instead.
        public var maxDiscardedBytes: Int
        /// Connections served at once (each has its own thread).
        public var connectionLimit: UInt32
        /// Seconds before an idle connection is closed.
        public var idleTimeoutSeconds: UInt32

        public init(
            maxBodyBytes: Int = 64 * 1024, maxDiscardedBytes: Int = 1024 * 1024, connectionLimit: UInt32 = 64,
            idleTimeoutSeconds: UInt32 = 30
        ) {
            self.maxBodyBytes = maxBodyBytes
            self.maxDiscardedBytes = maxDiscardedBytes
            self.connectionLimit = connectionLimit
            self.idleTimeoutSeconds = idleTimeoutSeconds
        }
    }

    /// The address the server listens on, as given (`127.0.0.1`, `::1`).
    public let host: String
    /// The port it listens on: the one the system chose when it was started on port 0.
    public let port: UInt16
    /// Whether it speaks HTTPS (it was started with a ``TLSIdentity``).
    public let isTLS: Bool

    private let daemon: Mutex<OpaquePointer?>
    private let context: Unmanaged<ServerContext>

    /// The base URL, e.g. `http://127.0.0.1:8080` (IPv6 hosts in brackets; `https` with TLS).
    public var baseURL: String {
        let scheme = isTLS ? "https" : "http"
        return host.contains(":") ? "\(scheme)://[\(host)]:\(port)" : "\(scheme)://\(host):\(port)"
    }

    /// Starts listening on `host` (an IPv4 or IPv6 address, or `localhost`) and `port` (0: any free port); over
    /// TLS (GnuTLS, inside libmicrohttpd) when `tls` is given.
    ///
    /// - Throws: ``HTTPServerError`` when the host is not an address or the port cannot be bound.
    public init(
        host: String, port: UInt16, limits: Limits = Limits(), tls: TLSIdentity? = nil, handler: any HTTPHandler
    ) throws {
        let address = try SocketAddress(host: host, port: port)
        let tlsMemory = tls.map(TLSMemory.init)
        let context = Unmanaged.passRetained(ServerContext(handler: handler, limits: limits, tls: tlsMemory))
        var flags =
            MHD_USE_POLL_INTERNAL_THREAD.rawValue | MHD_USE_THREAD_PER_CONNECTION.rawValue
            | MHD_USE_ERROR_LOG.rawValue
        if address.isIPv6 {
            flags |= MHD_USE_IPv6.rawValue
        }
        let access: MHD_AccessHandlerCallback = {
            context, connection, url, method, _, uploadData, uploadDataSize, requestState in
            HTTPServerCallbacks.access(
                context: context, connection: connection, url: url, method: method, uploadData: uploadData,
                uploadDataSize: uploadDataSize, requestState: requestState)
        }
        let completed: MHD_RequestCompletedCallback = { _, _, requestState, _ in
            HTTPServerCallbacks.completed(requestState: requestState)
        }
        let started = address.withSockaddr { sockaddr in
            if let tlsMemory {
                CMicroHTTPD_start_tls_daemon(
                    flags, sockaddr, access, context.toOpaque(), completed, nil, limits.connectionLimit,
                    limits.idleTimeoutSeconds, tlsMemory.privateKey, tlsMemory.certificate)
            } else {
                CMicroHTTPD_start_daemon(
                    flags, sockaddr, access, context.toOpaque(), completed, nil, limits.connectionLimit,
                    limits.idleTimeoutSeconds)
            }
        }
        guard let started else {
            let reason = String(cString: strerror(errno))
            context.release()
            throw HTTPServerError("cannot listen on \(host) port \(port): \(reason)")
        }
        let boundPort = CMicroHTTPD_bound_port(started)
        guard boundPort != 0 else {
            MHD_stop_daemon(started)
            context.release()
            throw HTTPServerError("listening on \(host), but libmicrohttpd did not say on which port")
        }
        self.host = host
        self.port = boundPort
        self.isTLS = tls != nil
        self.daemon = Mutex(started)
        self.context = context
    }

    deinit {
        stop()
        // Only now: stopping joined libmicrohttpd's threads, so no callback can still use the context.
        context.release()
    }

    /// Stops listening, closes every connection and waits for libmicrohttpd's threads (requests in progress
    /// finish first). Idempotent.
    public func stop() {
        let running = daemon.withLock { daemon in
            let running = daemon
            daemon = nil
            return running
        }
        if let running {
            MHD_stop_daemon(running)
        }
    }
}

/// What the callbacks reach through libmicrohttpd's closure pointer.
final class ServerContext: Sendable {
    let handler: any HTTPHandler
    let limits: HTTPServer.Limits
    /// The key and certificate libmicrohttpd points at, kept until the daemon is stopped.
    let tls: TLSMemory?

    init(handler: any HTTPHandler, limits: HTTPServer.Limits, tls: TLSMemory?) {
        self.handler = handler
        self.limits = limits
        self.tls = tls
    }
}
