import LedgerEntries

/// Where each id and each (device, sequence) was first seen across the files of one verify, as references to
/// lines (file number, line index) rather than copies of entries and "path:line" strings per entry. The two are
/// kept apart (``IDs``, ``Places``) so that a good file's lines can be checked against both at once, one on each
/// core.
struct VerifierCrossIndex {
    var ids = IDs()
    var places = Places()

    struct LineReference: Equatable {
        var file: Int32
        var line: Int32
    }

    /// What the other files (and lines before) say of one entry.
    struct Verdict {
        /// No entry with its id was seen before: it counts.
        var isFirstWithID = false
        /// The id was seen before with other content.
        var duplicate: VerificationProblem?
        /// Another entry was seen at its (device, sequence).
        var fork: VerificationProblem?
    }

    /// The lines of one verify, and how to name a line in a problem.
    struct Lines {
        let files: [LedgerVerifier.ReadFile]
        let number: Int
        let lines: UnsafeBufferPointer<LedgerVerifier.Line>

        func entry(at reference: LineReference) -> LedgerEntry? {
            files[Int(reference.file)].lines[Int(reference.line)].entry
        }

        func place(of reference: LineReference) -> String {
            "\(files[Int(reference.file)].path):\(files[Int(reference.file)].lines[Int(reference.line)].number)"
        }

        func problem(_ kind: VerificationProblem.Kind, at index: Int, _ detail: String) -> VerificationProblem {
            VerificationProblem(kind: kind, file: files[number].path, line: lines[index].number, detail: detail)
        }

        func reference(_ index: Int) -> LineReference { LineReference(file: Int32(number), line: Int32(index)) }
    }

    /// Records line `index` of `lines` (its entry's id has `hash`) and checks it against what was recorded before:
    /// one id, one content; one (device, sequence), one entry. The lines are read in place, and another line only
    /// when one matches.
    mutating func check(line index: Int, of lines: Lines, hash: UInt64) -> Verdict {
        var verdict = ids.check(line: index, of: lines, hash: hash)
        verdict.fork = places.check(line: index, of: lines)
        return verdict
    }

    /// ``check(line:of:hash:)`` for line `index` of `file`, number `number` of `files`.
    mutating func check(
        line index: Int, of file: LedgerVerifier.ReadFile, number: Int, in files: [LedgerVerifier.ReadFile]
    ) -> Verdict {
        file.lines.withUnsafeBufferPointer { lines in
            check(
                line: index, of: Lines(files: files, number: number, lines: lines), hash: lines[index].entry!.idHash)
        }
    }

    /// The ids seen, each at the line where it was first seen.
    struct IDs {
        private var index = EntryIDIndex()
        private var references: [LineReference] = []
        /// What ``prefetch(hash:)`` read (kept, so the reads are not optimised away).
        private var touched: UInt64 = 0

        /// Makes room for `count` more ids without growing the index as it fills.
        mutating func reserve(_ count: Int) {
            index.reserve(index.count + count)
            references.reserveCapacity(references.count + count)
        }

        /// Reads the slot an id with `hash` starts at, bringing it into the cache ahead of its check.
        @inline(__always)
        mutating func prefetch(hash: UInt64) {
            touched &+= index.slotValue(hash: hash)
            if touched == 1 { index.noteTouched() }  // keeps the loads
        }

        /// Records line `index`'s id (whose hash is `hash`): whether it is the first with it, or a duplicate with
        /// other content of the one that was.
        mutating func check(line index: Int, of lines: Lines, hash: UInt64) -> Verdict {
            var verdict = Verdict()
            if let other = firstLine(
                withHash: hash, recording: lines.reference(index),
                isMatch: { lines.entry(at: $0)?.hasSameID(as: lines.lines[index].entry!) ?? false })
            {
                if !lines.entry(at: other)!.hasSameContent(as: lines.lines[index].entry!) {
                    let id = lines.lines[index].entry!.id
                    verdict.duplicate = lines.problem(
                        .duplicated, at: index, "id \(id) is also at \(lines.place(of: other)) with other content")
                }
            } else {
                verdict.isFirstWithID = true
            }
            return verdict
        }

        /// The line where an entry with this id (whose hash is `hash`) was first seen, or nil after recording
        /// `reference` as that line; `isMatch` says whether the entry on a line has the id.
        private mutating func firstLine(
            withHash hash: UInt64, recording reference: LineReference, isMatch: (LineReference) -> Bool
        ) -> LineReference? {
            let found = references.withUnsafeBufferPointer { references in
                index.insert(references.count, hash: hash, matches: { isMatch(references[$0]) })
            }
            if let found { return references[found] }
            references.append(reference)
            return nil
        }
    }

    /// The (device, sequence) places seen, each with the line last seen there.
    struct Places {
        private var sequences: [String: DeviceLines] = [:]
        private var currentDevice = ""
        private var current = DeviceLines()

        private struct DeviceLines {
            var dense: [LineReference?] = []
            var sparse: [Int64: LineReference] = [:]

            var isEmpty: Bool { dense.isEmpty && sparse.isEmpty }
        }

        /// Records line `index` at its entry's (device, sequence): the fork when another entry was there.
        mutating func check(line index: Int, of lines: Lines) -> VerificationProblem? {
            // The entry's fields read in place (a copy of it would retain and release its strings).
            let sequence = lines.lines[index].entry!.sequence
            guard
                let other = exchange(
                    device: lines.lines[index].entry!.device, sequence: sequence, with: lines.reference(index)),
                lines.entry(at: other)?.macField != lines.lines[index].entry!.macField,
                lines.files[Int(other.file)].path != lines.files[lines.number].path
                    || lines.files[Int(other.file)].lines[Int(other.line)].number != lines.lines[index].number
            else { return nil }
            let device = lines.lines[index].entry!.device
            return lines.problem(.forked, at: index, "\(device) #\(sequence) differs from \(lines.place(of: other))")
        }

        /// Records the lines of a good file of `device` (its entries in sequence from 1, line `i` at sequence
        /// `i + 1`; ``LedgerVerifier/cleanChain(of:device:macValid:)``), number `file`, when no line of `device` was
        /// recorded before: then none is a fork, and each place is its line, recorded without looking at a line.
        /// False, recording nothing, when `device` has lines recorded already (check them one by one).
        mutating func recordFirstRun(of device: String, lines count: Int, file: Int32) -> Bool {
            select(device)
            guard count < Int(Int32.max), current.isEmpty else { return false }
            current.dense = (0..<count).map { LineReference(file: file, line: Int32($0)) }
            return true
        }

        /// Makes `device`'s lines the current ones (the others kept by device).
        private mutating func select(_ device: String) {
            guard device != currentDevice else { return }
            if !currentDevice.isEmpty { sequences[currentDevice] = current }
            currentDevice = device
            current = sequences[device] ?? DeviceLines()
            sequences[device] = nil
        }

        /// The line last recorded at (`device`, `sequence`), replaced by `reference`.
        private mutating func exchange(device: String, sequence: Int64, with reference: LineReference)
            -> LineReference?
        {
            select(device)
            if sequence >= 1 && sequence <= Int64(current.dense.count) + 1024 {
                let slot = Int(sequence - 1)
                while current.dense.count <= slot { current.dense.append(nil) }
                let previous = current.dense[slot]
                current.dense[slot] = reference
                return previous
            }
            return current.sparse.updateValue(reference, forKey: sequence)
        }
    }
}
