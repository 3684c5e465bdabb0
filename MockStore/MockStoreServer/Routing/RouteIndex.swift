import StoreWire

/// The routes a request's path may match, found without trying every template on every request.
///
/// A template matches only a path of as many segments, and one whose first segment is a word only a path that
/// begins with that word. Trying all of the store's templates took a catalogue request longer than the rest of its
/// routing: each try copied a route (its closures retained and released, on counters every connection thread
/// shares). The candidates keep the routes' order, so the first match and a 405's `Allow` list are as before.
struct RouteIndex: Sendable {
    private struct Key: Hashable {
        var count: Int
        var firstWord: String
    }

    /// Routes by their length and first word, each list with the routes of that length that begin with a parameter
    /// merged in, in the routes' order.
    private let byFirstWord: [Key: [Int]]
    /// Routes that begin with a parameter, by length: the candidates for a path no first word matches.
    private let byCount: [Int: [Int]]

    /// The index of `templates`, by their positions.
    init(_ templates: [PathTemplate]) {
        var byFirstWord: [Key: [Int]] = [:]
        var byCount: [Int: [Int]] = [:]
        for (position, template) in templates.enumerated() {
            if case .literal(let word) = template.segments.first {
                byFirstWord[Key(count: template.segments.count, firstWord: word), default: []].append(position)
            } else {
                byCount[template.segments.count, default: []].append(position)
            }
        }
        var merged: [Key: [Int]] = [:]
        for (key, positions) in byFirstWord {
            merged[key] = (positions + (byCount[key.count] ?? [])).sorted()
        }
        self.byFirstWord = merged
        self.byCount = byCount
    }

    /// The positions of the templates that may match `segments` (a path split at its slashes), in order: every
    /// template that matches is among them.
    func candidates(for segments: [String]) -> [Int] {
        if let first = segments.first, let listed = byFirstWord[Key(count: segments.count, firstWord: first)] {
            return listed
        }
        return byCount[segments.count] ?? []
    }
}
