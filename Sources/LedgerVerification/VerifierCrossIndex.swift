import LedgerEntries

/// Where each id and each (device, sequence) was first seen across the files of one verify, as references to
/// lines (file number, line index) rather than copies of entries and "path:line" strings per entry.
struct VerifierCrossIndex {
    private var ids = EntryIDIndex()
    private var idReferences: [LineReference] = []
    private var sequences: [String: DeviceLines] = [:]
    private var currentDevice = ""
    private var current = DeviceLines()
    /// What ``prefetch(hash:)`` read (kept, so the reads are not optimised away).
    private var touched: UInt64 = 0

    struct LineReference: Equatable {
        var file: Int32
        var line: Int32
    }

    private struct DeviceLines {
        var dense: [LineReference?] = []
        var sparse: [Int64: LineReference] = [:]
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

    /// Records line `index` of `lines` (those of file number `number` of `files`; the line holds an entry whose id
    /// has `hash`) and checks it against what was recorded before: one id, one content; one (device, sequence), one
    /// entry. The lines are read in place, and another line only when one matches.
    mutating func check(
        line index: Int, of lines: UnsafeBufferPointer<LedgerVerifier.Line>, hash: UInt64, number: Int,
        in files: [LedgerVerifier.ReadFile]
    ) -> Verdict {
        let here = LineReference(file: Int32(number), line: Int32(index))
        func entryAt(_ reference: LineReference) -> LedgerEntry? {
            files[Int(reference.file)].lines[Int(reference.line)].entry
        }
        func placeOf(_ reference: LineReference) -> String {
            "\(files[Int(reference.file)].path):\(files[Int(reference.file)].lines[Int(reference.line)].number)"
        }
        func problem(_ kind: VerificationProblem.Kind, _ detail: String) -> VerificationProblem {
            VerificationProblem(kind: kind, file: files[number].path, line: lines[index].number, detail: detail)
        }
        var verdict = Verdict()
        if let other = firstLine(
            withHash: hash, recording: here, isMatch: { entryAt($0)?.hasSameID(as: lines[index].entry!) ?? false })
        {
            if !entryAt(other)!.hasSameContent(as: lines[index].entry!) {
                let id = lines[index].entry!.id
                verdict.duplicate = problem(.duplicated, "id \(id) is also at \(placeOf(other)) with other content")
            }
        } else {
            verdict.isFirstWithID = true
        }
        let sequence = lines[index].entry!.sequence
        if let other = exchange(device: lines[index].entry!.device, sequence: sequence, with: here),
            entryAt(other)?.macField != lines[index].entry!.macField,
            files[Int(other.file)].path != files[number].path
                || files[Int(other.file)].lines[Int(other.line)].number != lines[index].number
        {
            let device = lines[index].entry!.device
            verdict.fork = problem(.forked, "\(device) #\(sequence) differs from \(placeOf(other))")
        }
        return verdict
    }

    /// Makes room for `count` more ids without growing the index as it fills.
    mutating func reserve(_ count: Int) {
        ids.reserve(ids.count + count)
        idReferences.reserveCapacity(idReferences.count + count)
    }

    /// Reads the slot an id with `hash` starts at, bringing it into the cache ahead of its check.
    @inline(__always)
    mutating func prefetch(hash: UInt64) {
        touched &+= ids.slotValue(hash: hash)
        if touched == 1 { ids.noteTouched() }  // keeps the loads
    }

    /// ``check(line:of:hash:number:in:)`` for line `index` of `file`, number `number` of `files`.
    mutating func check(
        line index: Int, of file: LedgerVerifier.ReadFile, number: Int, in files: [LedgerVerifier.ReadFile]
    ) -> Verdict {
        file.lines.withUnsafeBufferPointer { lines in
            check(line: index, of: lines, hash: lines[index].entry!.idHash, number: number, in: files)
        }
    }

    /// The line where an entry with this id (whose hash is `hash`) was first seen, or nil after recording
    /// `reference` as that line; `isMatch` says whether the entry on a line has the id.
    private mutating func firstLine(
        withHash hash: UInt64, recording reference: LineReference, isMatch: (LineReference) -> Bool
    ) -> LineReference? {
        let found = idReferences.withUnsafeBufferPointer { references in
            ids.insert(references.count, hash: hash, matches: { isMatch(references[$0]) })
        }
        if let found { return idReferences[found] }
        idReferences.append(reference)
        return nil
    }

    /// The line last recorded at (`device`, `sequence`), replaced by `reference`.
    private mutating func exchange(device: String, sequence: Int64, with reference: LineReference) -> LineReference? {
        if device != currentDevice {
            if !currentDevice.isEmpty { sequences[currentDevice] = current }
            currentDevice = device
            current = sequences[device] ?? DeviceLines()
            sequences[device] = nil
        }
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
