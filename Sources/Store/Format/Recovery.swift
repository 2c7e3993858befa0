/// What open decides from the bytes of the two files, before it writes anything: which
/// generation wins and what damage to report. A pure function of the bytes, so the corruption
/// sweep and the fuzz target run it without a file system.
struct Recovery {
    /// Each file's size.
    let sizes: [Int]
    let scans: [FileScan]
    /// The file holding the newest readable generation; nil if neither holds one.
    let chosen: Int?
    /// The highest generation of any checksummed record in either file: compactions after
    /// this open use higher ones, so no leftover record can ever be replayed as new.
    let highestGeneration: UInt32
    var report = RecoveryReport()

    /// Neither file holds a record with a good checksum anywhere: a new store, or one whose
    /// creation was cut short (zero fills torn, the first snapshot torn) before anything was
    /// acknowledged. Every acknowledged state leaves at least one whole snapshot.
    var isBlank: Bool { scans.allSatisfy { $0.highestGeneration == nil } }

    /// `contents` holds at least each file's record region (whole files are fine); `sizes`
    /// defaults to their lengths.
    init(contents: [[UInt8]], sizes: [Int]? = nil, fileSize: Int) {
        let sizes = sizes ?? contents.map(\.count)
        self.sizes = sizes
        let names = FileStoreConfiguration.fileNames
        let region = FileStoreConfiguration.recordRegion(fileSize)
        let scans = contents.indices.map { index in
            contents[index].withUnsafeBytes {
                FileScan(
                    name: names[index], bytes: UnsafeRawBufferPointer(rebasing: $0.prefix(region)), size: sizes[index],
                    expectedSize: fileSize)
            }
        }
        self.scans = scans
        highestGeneration = scans.compactMap { $0.highestGeneration?.generation }.max() ?? 0
        chosen = scans.indices.filter { scans[$0].hasSnapshot }.max { scans[$0].generation! < scans[$1].generation! }
        report.files = scans.indices.map { i in
            RecoveryReport.File(
                name: names[i], size: sizes[i], generation: scans[i].generation, schema: scans[i].schema,
                snapshotSequence: scans[i].snapshotSequence, lastSequence: scans[i].sequence, records: scans[i].records,
                tail: scans[i].tail)
        }
        guard let chosen else {
            guard !isBlank else { return }
            report.damage = scans.flatMap(\.damage)
            for scan in scans where !scan.damage.contains(where: \.isMalformedSnapshot) {
                report.damage.append(StoreDamage(file: scan.name, offset: 0, kind: .malformedSnapshot("no readable snapshot")))
            }
            return
        }
        let scan = scans[chosen]
        let other = 1 - chosen
        report.chosen = scan.name
        // The other file's stale log is not ours to judge, but its size is.
        report.damage = scan.damage + scans[other].damage.filter(\.isWrongSize)
        // An empty other file is a store whose creation was cut short, unless something was
        // committed since: then it may have held the newest generation.
        if sizes[other] == 0, scan.sequence > 0 {
            report.damage.append(StoreDamage(file: names[other], kind: .missing))
        }
        // Records of a newer generation whose snapshot cannot be read: a torn compaction never
        // leaves one (its first copy is written first), so the medium lost a newer state.
        for candidate in scans {
            guard let (newer, offset) = candidate.highestGeneration, newer > scan.generation! else { continue }
            report.damage.append(StoreDamage(file: candidate.name, offset: offset, kind: .unreadableGeneration(newer)))
        }
    }
}

extension StoreDamage {
    var isMalformedSnapshot: Bool {
        if case .malformedSnapshot = kind { return true }
        return false
    }

    var isWrongSize: Bool {
        if case .wrongSize = kind { return true }
        return false
    }
}
