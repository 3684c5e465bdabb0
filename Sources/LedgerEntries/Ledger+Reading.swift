import DurableFiles

extension Ledger {
    /// Reads every device file's new bytes: each grown file from where the last read stopped, a torn tail set aside
    /// before what was read counts. A file that shrank (restored or cut by hand) makes everything be read again.
    package func refreshLocked() throws {
        // Through `ledger/` held open when the ledger is writable: the directory checked, whatever its path names now.
        let names = try
            (held.map { try ledgerListing.names(of: $0.ledger) } ?? ledgerListing.names(of: ledgerDirectory))
            .filter { $0.hasSuffix(".jsonl") }
        // A first read (nothing read yet) of a large file cuts it where the checkpoint says the last full read did;
        // the checkpoint is read for that once, when such a file is met.
        var hints: [String: DeviceFile.Hints]?
        for name in names {
            let owner = String(name.dropLast(6))
            let path = ledgerDirectory + "/" + name
            // Not through a link, and nothing but a regular file: a directory or a FIFO there is refused by name.
            let size = try held.map { try $0.ledger.regularFileSize(name) } ?? Files.regularFileSize(path)
            var file = files[owner] ?? DeviceFile(path: path, isSigned: mustBeSigned(owner))
            if size == file.size { continue }
            if size < file.size {
                // The file shrank under us: forget everything and read it all again.
                resetState()
                return try refreshLocked()
            }
            if state.entries.isEmpty && size >= 2 * ParallelLines.minimumPartBytes {
                if hints == nil {
                    checkpointRead = lineMACs.flatMap { LedgerCheckpoint.read(in: directory, macKey: $0.key) }
                    hints = checkpointRead?.checkpoint.lineHints ?? [:]
                }
            }
            try readNewLines(of: &file, owner: owner, hints: hints?[name])
            files[owner] = file
        }
    }

    /// Whether `owner`'s file must be signed whatever its first line says (true), or may be a ledger made before
    /// signing (nil: its first line decides). In a signed ledger, another device's file must be (a merge, a join or a
    /// sync takes only signed files), and so must this device's once a signed head was kept for it (one is written
    /// only for a signed file): with its MACs stripped it would otherwise read as a ledger made before signing, its
    /// lines trusted unchecked.
    private func mustBeSigned(_ owner: String) -> Bool? {
        guard lineMACs != nil else { return nil }
        return owner != device || hasSignedHead(owner) ? true : nil
    }

    /// Whether a signed head of `owner`'s file is kept here (whatever it holds): one is written only once the file's
    /// entries are durable.
    private func hasSignedHead(_ owner: String) -> Bool {
        (try? Files.entryStatus(SignedHead.path(in: directory, device: owner))) != nil
    }

    /// Reads `file`'s new lines onto the entries, sets a torn tail aside, then counts what was read (a first read
    /// counts most of it while it parses). A bad line with whole entries after it throws, and nothing read from the
    /// file this time counts.
    private func readNewLines(of file: inout DeviceFile, owner: String, hints: DeviceFile.Hints?) throws {
        var read: DeviceFile.NewLines?
        var setAside: LedgerNotice?
        let along = try state.appendEntries(countingAlong: file.path, firstLine: file.lines + 1) { entries, counter in
            guard
                let lines = try file.readNewLines(
                    into: &entries, owner: owner, macs: lineMACs, in: held?.ledger, counter: counter, hints: hints)
            else { return }
            if lineMACs != nil && !lines.chainChecked { try file.checkChain(of: entries[lines.first...]) }
            // A torn write leaves the end of a file, never all of one whose entries a signed head vouched for: a
            // file none of whose lines reads (every line ending changed, say) is damage, never set aside whole (an
            // own file set aside whole would be made again, from its opening).
            if lines.tornTail != nil, lines.consumed == 0, file.lines == 0, lineMACs != nil, hasSignedHead(owner) {
                throw LedgerError.corruptLine(
                    file: file.path, line: 1,
                    reason: "no line of the file reads as an entry, though its signed head says it held entries")
            }
            if let tail = lines.tornTail, isReadOnly {
                setAside = .tornTailLeft(file: file.path, bytes: tail.count)
            } else if let tail = lines.tornTail {
                setAside = try writer.setAsideTornTail(
                    tail, of: file.path, keeping: lines.consumed, owner: owner, in: tornDirectory,
                    milliseconds: clock.now().milliseconds)
            }
            read = lines
        }
        // Told once the state is whole again (a listener may look at the ledger).
        if let setAside { note(setAside) }
        guard let read else { return }
        guard let firstLine = file.take(read, of: state.entries) else { return }
        let rest = read.first + along.counted
        let hashes = along.counted == 0 ? read.hashes : read.hashes.map { Array($0[along.counted...]) }
        let notices = state.count(from: rest, file: file.path, firstLine: firstLine + along.counted, hashes: hashes)
        noteAll(along.notices + notices)
    }

    /// Forgets everything read, so the next refresh reads every file from the start.
    package func resetState() {
        state.removeAll()
        files = [:]
        keptCheckpoint = nil
        ledgerListing.forget()
        writer.closeAppendDescriptor()
    }

    /// Drops the descriptor and everything read, and reads every file again from the start (the failure that got
    /// here is what the caller reports; one that recurs here shows on the next call).
    package func rereadLocked() {
        resetState()
        try? refreshLocked()
    }
}
