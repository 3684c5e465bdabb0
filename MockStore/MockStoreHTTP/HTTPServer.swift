import CMicroHTTPD
import Clocks
import Foundation
import Synchronization

/// An HTTP/1.1 server on GNU libmicrohttpd, answering every request with an ``HTTPHandler``.
///
/// libmicrohttpd runs a thread per connection (`MHD_USE_THREAD_PER_CONNECTION`, polling with `poll`, a small
/// stack each), up to ``Limits/connectionLimit`` of them and a margin (thousands: an idle connection's thread
/// sleeps in `poll`), plus one thread that accepts: the handler is called on the connection's thread, so requests on
/// different connections are handled at the same time, and a handler that waits (for a commit, say) holds up only
/// its own connection. The handler must therefore be safe to call concurrently. (A few polling threads on epoll
/// with suspended connections would use fewer threads, but libmicrohttpd 0.9.75 then drops a request whose client
/// half-closes before the answer, so it is not used.) A request body is read in pieces into a per-request buffer (kept in libmicrohttpd's
/// `con_cls` slot, freed when the request completes) and never beyond ``Limits/maxBodyBytes``. Deadlines
/// (``ConnectionDeadlines``) close connections that hold a slot without sending a whole request in time, and the
/// connections idle longest when every slot kept is taken, so a new connection always finds one.
public final class HTTPServer: Sendable {
    /// Bounds that keep a bad client, or very many clients, from exhausting the process or holding the server.
    public struct Limits: Sendable, Equatable {
        /// The largest request body accepted; larger ones get ``HTTPHandler/payloadTooLarge(limit:)``.
        public var maxBodyBytes: Int
        /// How much of an oversized body (sent without a `Content-Length`) is read and dropped before the
        /// connection is closed instead.
        public var maxDiscardedBytes: Int
        /// Connections kept open at once: beyond, the ones idle longest are closed to make room
        /// (``ConnectionDeadlines``), so a new connection is always served; libmicrohttpd may hold a margin more
        /// (``ConnectionSlots``) for connections arriving faster than those are freed. The process's soft limit
        /// on open files is raised to the hard one when it is lower, and this is lowered to what that allows.
        public var connectionLimit: UInt32
        /// Seconds a connection may wait before it begins a request (from its opening or its previous answer);
        /// also libmicrohttpd's timeout for a connection with no traffic at all.
        public var idleTimeoutSeconds: UInt32
        /// Seconds a request has, from its request line, to arrive whole (headers and body); a request that
        /// takes longer is answered ``HTTPHandler/requestTimeout(seconds:)`` (over plain HTTP) and its connection
        /// closed.
        public var requestTimeoutSeconds: Double
        /// The stack of each connection's thread.
        public var threadStackBytes: Int

        public init(
            maxBodyBytes: Int = 64 * 1024, maxDiscardedBytes: Int = 1024 * 1024, connectionLimit: UInt32 = 4096,
            idleTimeoutSeconds: UInt32 = 30, requestTimeoutSeconds: Double = 10, threadStackBytes: Int = 1 << 20
        ) {
            self.maxBodyBytes = maxBodyBytes
            self.maxDiscardedBytes = maxDiscardedBytes
            self.connectionLimit = connectionLimit
            self.idleTimeoutSeconds = idleTimeoutSeconds
            self.requestTimeoutSeconds = requestTimeoutSeconds
            self.threadStackBytes = threadStackBytes
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
    ///
    /// `clock` times the deadlines of idle and slow connections (a test's clock, to pass them without waiting).
    public init(
        host: String, port: UInt16, limits: Limits = Limits(), tls: TLSIdentity? = nil, handler: any HTTPHandler,
        clock: any WallClock = MonotonicClock()
    ) throws {
        let address = try SocketAddress(host: host, port: port)
        let tlsMemory = tls.map(TLSMemory.init)
        var limits = limits
        let requested = Int(limits.connectionLimit)
        let files = FileDescriptorLimit.raise(
            toAtLeast: requested + ConnectionSlots.margin(for: requested) + FileDescriptorLimit.reserve)
        let slots = ConnectionSlots(requested: requested, files: max(16, files - FileDescriptorLimit.reserve))
        limits.connectionLimit = UInt32(clamping: slots.kept)
        let requestSeconds = max(0.05, limits.requestTimeoutSeconds)
        let deadlines = ConnectionDeadlines(
            idleSeconds: Double(max(1, limits.idleTimeoutSeconds)), requestSeconds: requestSeconds,
            lateAnswer: tls == nil ? handler.requestTimeout(seconds: requestSeconds).wireBytes(closing: true) : [],
            openLimit: slots.kept, spareSlots: slots.total - slots.kept, clock: clock)
        let context = Unmanaged.passRetained(
            ServerContext(
                handler: handler, limits: limits, tls: tlsMemory, deadlines: deadlines))
        // No MHD_USE_ERROR_LOG: libmicrohttpd's own messages ("Failed to bind to port 0") would come before ours.
        var flags =
            MHD_USE_POLL_INTERNAL_THREAD.rawValue | MHD_USE_THREAD_PER_CONNECTION.rawValue
        if address.isIPv6 {
            flags |= MHD_USE_IPv6.rawValue
        }
        let started = address.withSockaddr { sockaddr in
            CMicroHTTPD_start(
                flags, sockaddr, HTTPServerCallbacks.accessCallback, context.toOpaque(),
                HTTPServerCallbacks.completedCallback, HTTPServerCallbacks.requestLineCallback,
                HTTPServerCallbacks.connectionCallback, UInt32(clamping: slots.total), limits.idleTimeoutSeconds,
                max(0, limits.threadStackBytes), tlsMemory?.privateKey, tlsMemory?.certificate)
        }
        guard let started else {
            let reason = errno == EADDRINUSE ? "the port is in use" : String(cString: strerror(errno))
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
        deadlines.start()
    }

    deinit {
        stop()
        // Only now: stopping joined libmicrohttpd's threads, so no callback can still use the context.
        context.release()
    }

    /// How many connections were closed for taking too long to send a whole request (or to begin one).
    public var connectionsClosedForDeadlines: Int { context.takeUnretainedValue().deadlines.connectionsCut }

    /// The deadlines of its connections (for tests that move its clock).
    var deadlines: ConnectionDeadlines { context.takeUnretainedValue().deadlines }

    /// How many idle connections were closed to make room for new ones, beyond ``Limits/connectionLimit``.
    public var connectionsClosedForRoom: Int { context.takeUnretainedValue().deadlines.connectionsClosedForRoom }

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
            context.takeUnretainedValue().deadlines.stop()
        }
    }
}

/// What the callbacks reach through libmicrohttpd's closure pointer.
final class ServerContext: Sendable {
    let handler: any HTTPHandler
    let limits: HTTPServer.Limits
    /// The key and certificate libmicrohttpd points at, kept until the daemon is stopped.
    let tls: TLSMemory?
    /// Every connection's deadline.
    let deadlines: ConnectionDeadlines

    init(
        handler: any HTTPHandler, limits: HTTPServer.Limits, tls: TLSMemory?, deadlines: ConnectionDeadlines
    ) {
        self.handler = handler
        self.limits = limits
        self.tls = tls
        self.deadlines = deadlines
    }
}
