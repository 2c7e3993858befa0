import HAL
import SystemPackage

/// Directory operations: names are live at once and durable once their directory is synced.
extension CrashableFileSystem {
    public func synchronizeDirectory(_ path: FilePath) throws(FileSystemError) {
        tick(.synchronizeDirectory)
        guard let directory = try live.locate(path).inode else { throw FileSystemError(.notFound) }
        guard live.kind(directory) == .directory else { throw FileSystemError(.notDirectory) }
        try injected(.synchronizeDirectory)
        durable.nodes[directory]?.entries = live.nodes[directory]?.entries ?? [:]
        for index in pending.indices {
            pending[index].change.markDurable(directory: directory)
        }
        pending.removeAll { $0.change.isDurable }
        reclaim()
    }

    /// Frees inodes nothing can reach again, as the kernel frees an inode whose last link and
    /// last descriptor are gone: named in neither tree, open nowhere, and in no change a crash
    /// could still apply. Without it every weather-cache rewrite (temporary file, rename over
    /// the old one) kept the old copy for the life of the simulation: about 250 KB a simulated
    /// day, which a year's soak would take for the device's own growth.
    func reclaim() {
        let named = live.reachable().union(durable.reachable())
        var keep = named
        for open in handles.values { keep.insert(open.inode) }
        for change in pending { if let inode = change.change.inode { keep.insert(inode) } }
        guard live.nodes.count > keep.count || durable.nodes.count > keep.count else { return }
        live.nodes = live.nodes.filter { keep.contains($0.key) }
        durable.nodes = durable.nodes.filter { keep.contains($0.key) }
        for inode in dirtyPages.keys where !keep.contains(inode) { dirtyPages[inode] = nil }
    }

    public func rename(_ source: FilePath, to destination: FilePath) throws(FileSystemError) {
        tick(.rename)
        let from = try live.locate(source)
        guard let inode = from.inode, let fromName = from.name else { throw FileSystemError(.notFound) }
        let to = try live.locate(destination)
        guard let toName = to.name else { throw FileSystemError(.exists) }
        let kind = live.kind(inode)
        if let existing = to.inode {
            if existing == inode { return }
            switch (kind, live.kind(existing)) {
            case (.file, .directory): throw FileSystemError(.isDirectory)
            case (.directory, .file): throw FileSystemError(.notDirectory)
            case (.directory, .directory):
                if !(live.nodes[existing]?.entries.isEmpty ?? true) {
                    throw FileSystemError(.other, errno: .directoryNotEmpty)
                }
            default: break
            }
        }
        if kind == .directory && isInside(to.parent, directory: inode) {
            throw FileSystemError(.other, errno: .invalidArgument)
        }
        if isReadOnly { throw FileSystemError(.readOnly) }
        try injected(.rename)
        live.nodes[from.parent]?.entries[fromName] = nil
        live.nodes[to.parent]?.entries[toName] = inode
        pending.append(
            PendingChange(
                .rename(
                    fromDirectory: from.parent, fromName: fromName, toDirectory: to.parent, toName: toName,
                    inode: inode, sourceDurable: false, targetDurable: false),
                path: source, destination: destination))
    }

    public func unlink(_ path: FilePath) throws(FileSystemError) {
        tick(.unlink)
        let location = try live.locate(path)
        guard let inode = location.inode, let name = location.name else { throw FileSystemError(.notFound) }
        guard live.kind(inode) == .file else { throw FileSystemError(.isDirectory) }
        if isReadOnly { throw FileSystemError(.readOnly) }
        try injected(.unlink)
        live.nodes[location.parent]?.entries[name] = nil
        pending.append(PendingChange(.unlink(directory: location.parent, name: name, inode: inode), path: path))
    }

    public func createDirectory(_ path: FilePath) throws(FileSystemError) {
        tick(.createDirectory)
        let location = try live.locate(path)
        guard location.inode == nil, let name = location.name else { throw FileSystemError(.exists) }
        if isReadOnly { throw FileSystemError(.readOnly) }
        try injected(.createDirectory)
        let inode = makeNode(.directory)
        live.nodes[location.parent]?.entries[name] = inode
        pending.append(PendingChange(.link(directory: location.parent, name: name, inode: inode), path: path))
    }

    /// Whether `candidate` is `directory` or below it.
    private func isInside(_ candidate: Int, directory: Int) -> Bool {
        if candidate == directory { return true }
        var queue = [directory]
        while let next = queue.popLast() {
            for child in (live.nodes[next]?.entries ?? [:]).values where live.kind(child) == .directory {
                if child == candidate { return true }
                queue.append(child)
            }
        }
        return false
    }

    // MARK: Set-up and inspection (not counted as operations)

    /// Creates a file with `contents` that is already durable, name included (the state a
    /// test starts from). Missing parent directories are created, durable too.
    public func seedFile(_ path: FilePath, contents: [UInt8]) {
        let parent = seedDirectories(path.removingLastComponent())
        guard let name = path.lastComponent?.string else { return }
        let inode = live.nodes[parent]?.entries[name] ?? makeNode(.file)
        live.nodes[inode]?.data = contents
        durable.nodes[inode]?.data = contents
        live.nodes[parent]?.entries[name] = inode
        durable.nodes[parent]?.entries[name] = inode
    }

    /// Creates `path` and its parents as durable directories; returns its inode.
    @discardableResult
    public func seedDirectory(_ path: FilePath) -> Int { seedDirectories(path) }

    private func seedDirectories(_ path: FilePath) -> Int {
        var directory = FileTree.root
        for component in path.components where component.kind == .regular {
            let name = component.string
            if let child = live.nodes[directory]?.entries[name], live.kind(child) == .directory {
                directory = child
                continue
            }
            let child = makeNode(.directory)
            live.nodes[directory]?.entries[name] = child
            durable.nodes[directory]?.entries[name] = child
            directory = child
        }
        return directory
    }

    /// The contents of the file at `path` as reads see them now, or `nil`.
    public func contents(of path: FilePath) -> [UInt8]? {
        guard let inode = live.inode(at: path), live.kind(inode) == .file else { return nil }
        return live.nodes[inode]?.data
    }

    /// The contents the file at `path` would have after a `crash()` now, or `nil` if it would
    /// not exist.
    public func durableContents(of path: FilePath) -> [UInt8]? {
        guard let inode = durable.inode(at: path), durable.kind(inode) == .file else { return nil }
        return durable.nodes[inode]?.data
    }

    public func exists(_ path: FilePath) -> Bool { live.inode(at: path) != nil }

    /// The names in the directory at `path`, sorted, or `nil`.
    public func listDirectory(_ path: FilePath) -> [String]? {
        guard let inode = live.inode(at: path), live.kind(inode) == .directory else { return nil }
        return live.nodes[inode]?.entries.keys.sorted()
    }
}
