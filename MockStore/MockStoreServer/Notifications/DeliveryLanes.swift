import Dispatch
import MockStoreHTTP
import Synchronization

/// The dispatcher's connections to its receiver: a few lanes, each a serial queue keeping one libcurl connection
/// alive between its requests, so up to ``count`` notifications are on the wire at once. (A concurrent queue would
/// run about as many as there are cores, each blocked on the network; libdispatch gives each serial queue with work
/// a thread of its own.)
final class DeliveryLanes: Sendable {
    /// One lane: its queue, and the connection only that queue touches.
    private final class Lane: @unchecked Sendable {
        // @unchecked: `connection` is read and written only on `queue`, one block at a time.
        let queue: DispatchQueue
        var connection: HTTPConnection?

        init(label: String) {
            queue = DispatchQueue(label: label)
        }
    }

    private let lanes: [Lane]

    /// Lanes in all: the most notifications in flight to the receiver at once.
    var count: Int { lanes.count }

    init(count: Int) {
        lanes = (0..<count).map { Lane(label: "mockstore.notifications.\($0)") }
    }

    /// Runs `work(index, connection)` for each index below `items`, on up to ``count`` lanes at once, each lane
    /// taking the next index as it finishes one (so a slow receiver answer holds up only its lane); returns once every
    /// index has run. `connection` is the lane's kept connection, made by `connect` when it has none or the last
    /// was dropped (nil: `connect` failed, the work reports that).
    func run(
        _ items: Int, connect: @escaping @Sendable () throws -> HTTPConnection,
        _ work: @escaping @Sendable (Int, inout HTTPConnection?) -> Void
    ) {
        let next = Atomic<Int>(0)
        let group = DispatchGroup()
        for lane in lanes.prefix(items) {
            lane.queue.async(group: group) {
                while true {
                    let index = next.add(1, ordering: .relaxed).oldValue
                    guard index < items else { return }
                    if lane.connection == nil { lane.connection = try? connect() }
                    work(index, &lane.connection)
                }
            }
        }
        group.wait()
    }
}
