/// How many connections the server holds: ``kept`` open at most (beyond, ``ConnectionDeadlines`` closes the ones
/// idle longest), and ``total``, libmicrohttpd's own limit (`MHD_OPTION_CONNECTION_LIMIT`), a margin above.
///
/// libmicrohttpd closes every connection it accepts at its limit, and it frees a connection closed to make room
/// only later, on its accepting thread, between two accepts; so a burst of new connections can outrun the
/// freeing. The margin absorbs such a burst: the connection after it still finds a slot.
struct ConnectionSlots: Equatable {
    /// Connections kept open at most: the limit asked for, unless the open-file limit allows fewer.
    let kept: Int
    /// libmicrohttpd's limit: ``kept`` and the margin.
    let total: Int

    /// Slots for `requested` connections (`--max-connections`) when `files` descriptors are free for them.
    init(requested: Int, files: Int) {
        let margin = Self.margin(for: requested)
        total = max(2, min(requested + margin, files))
        kept = max(1, min(requested, total - min(margin, total / 2)))
    }

    /// The margin above `requested`: an eighth of it, from 16 to 256.
    static func margin(for requested: Int) -> Int {
        min(256, max(16, requested / 8))
    }
}
