/// Where each id and each (device, sequence) was first seen across the files of one verify, as references to
/// lines (file number, line index) rather than copies of entries and "path:line" strings per entry.
struct VerifierCrossIndex {
    private var ids = EntryIDIndex()
    private var idReferences: [LineReference] = []
    private var sequences: [String: DeviceLines] = [:]
    private var currentDevice = ""
    private var current = DeviceLines()

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

    /// Records line `index` of `file` (number `number` of `files`, whose line holds an entry) and checks it against
    /// what was recorded before: one id, one content; one (device, sequence), one entry.
    mutating func check(
        line index: Int, of file: LedgerVerifier.ReadFile, number: Int, in files: [LedgerVerifier.ReadFile]
    )
        -> Verdict
    {
        let here = LineReference(file: Int32(number), line: Int32(index))
        func entryAt(_ reference: LineReference) -> LedgerEntry? {
            files[Int(reference.file)].lines[Int(reference.line)].entry
        }
        func placeOf(_ reference: LineReference) -> String {
            "\(files[Int(reference.file)].path):\(files[Int(reference.file)].lines[Int(reference.line)].number)"
        }
        func problem(_ kind: VerificationProblem.Kind, _ detail: String) -> VerificationProblem {
            VerificationProblem(kind: kind, file: file.path, line: file.lines[index].number, detail: detail)
        }
        var verdict = Verdict()
        // The entry's fields are read where they are (copying a whole entry per line is most of the cost).
        let lineNumber = file.lines[index].number
        let id = file.lines[index].entry!.id
        if let other = firstLine(forID: id, recording: here, isMatch: { entryAt($0)?.id == id }) {
            if !entryAt(other)!.hasSameContent(as: file.lines[index].entry!) {
                verdict.duplicate = problem(.duplicated, "id \(id) is also at \(placeOf(other)) with other content")
            }
        } else {
            verdict.isFirstWithID = true
        }
        let device = file.lines[index].entry!.device
        let sequence = file.lines[index].entry!.sequence
        if let other = exchange(device: device, sequence: sequence, with: here),
            entryAt(other)?.macField != file.lines[index].entry!.macField,
            files[Int(other.file)].path != file.path
                || files[Int(other.file)].lines[Int(other.line)].number != lineNumber
        {
            verdict.fork = problem(.forked, "\(device) #\(sequence) differs from \(placeOf(other))")
        }
        return verdict
    }

    /// The line where an entry with this id was first seen, or nil after recording `reference` as that line;
    /// `isMatch` says whether the entry on a line has the id.
    private mutating func firstLine(
        forID id: String, recording reference: LineReference, isMatch: (LineReference) -> Bool
    ) -> LineReference? {
        let hash = EntryIDIndex.hash(id)
        let references = idReferences
        if let found = ids.insert(idReferences.count, hash: hash, matches: { isMatch(references[$0]) }) {
            return idReferences[found]
        }
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
