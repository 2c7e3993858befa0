import HAL
import SystemPackage

/// One image of a simulated file system: inodes and the directory entries that name them.
///
/// `CrashableFileSystem` keeps two: the live tree every call sees (the page cache and dcache)
/// and the durable tree a crash falls back to (the medium). Inode numbers are shared between
/// them and never reused, so an unreachable inode in the durable tree (a file whose name is not
/// durable yet) still holds whatever data was synced to it.
struct FileTree: Sendable {
    enum Kind: Sendable, Equatable { case file, directory }

    struct Node: Sendable {
        var kind: Kind
        var data: [UInt8] = []
        var entries: [String: Int] = [:]
    }

    static let root = 0
    var nodes: [Int: Node] = [FileTree.root: Node(kind: .directory)]

    /// Where a path leads: its directory, its last name, and the inode it names (if any).
    struct Location {
        var parent: Int
        var name: String?
        var inode: Int?
    }

    /// Resolves `path` against the root (a relative path is taken from the root too).
    /// Throws `.notFound` for a missing directory on the way and `.notDirectory` for a file.
    func locate(_ path: FilePath) throws(FileSystemError) -> Location {
        var stack: [Int] = [FileTree.root]
        var names: [String] = []
        for component in path.components {
            switch component.kind {
            case .currentDirectory: continue
            case .parentDirectory: names.append("..")
            case .regular: names.append(component.string)
            }
        }
        guard let last = names.last else { return Location(parent: FileTree.root, name: nil, inode: FileTree.root) }
        for name in names.dropLast() {
            if name == ".." {
                if stack.count > 1 { stack.removeLast() }
                continue
            }
            let directory = stack[stack.count - 1]
            guard let child = nodes[directory]?.entries[name], let node = nodes[child] else {
                throw FileSystemError(.notFound)
            }
            guard node.kind == .directory else { throw FileSystemError(.notDirectory) }
            stack.append(child)
        }
        if last == ".." {
            if stack.count > 1 { stack.removeLast() }
            let inode = stack[stack.count - 1]
            return Location(parent: stack.count > 1 ? stack[stack.count - 2] : FileTree.root, name: nil, inode: inode)
        }
        let parent = stack[stack.count - 1]
        return Location(parent: parent, name: last, inode: nodes[parent]?.entries[last])
    }

    /// The inode `path` names, if it resolves.
    func inode(at path: FilePath) -> Int? { (try? locate(path))?.inode }

    func kind(_ inode: Int) -> Kind? { nodes[inode]?.kind }

    /// Writes `bytes` at `offset`, zero-filling any gap after the end.
    mutating func write(_ bytes: some Collection<UInt8>, to inode: Int, at offset: Int) {
        guard var node = nodes[inode] else { return }
        nodes[inode] = nil  // keep the array uniquely referenced while it changes
        let end = offset + bytes.count
        if node.data.count < end { node.data.append(contentsOf: repeatElement(0, count: end - node.data.count)) }
        node.data.replaceSubrange(offset..<end, with: bytes)
        nodes[inode] = node
    }

    mutating func resize(_ inode: Int, to size: Int) {
        guard var node = nodes[inode] else { return }
        nodes[inode] = nil
        if size < node.data.count {
            node.data.removeSubrange(size...)
        } else {
            node.data.append(contentsOf: repeatElement(0, count: size - node.data.count))
        }
        nodes[inode] = node
    }

    /// Drops inodes no name reaches (what fsck or the orphan list does after a crash).
    mutating func collectGarbage() {
        let reachable = reachable()
        nodes = nodes.filter { reachable.contains($0.key) }
    }

    /// The inodes some name reaches from the root.
    func reachable() -> Set<Int> {
        var reachable: Set<Int> = [FileTree.root]
        var queue = [FileTree.root]
        while let next = queue.popLast() {
            for child in (nodes[next]?.entries ?? [:]).values where reachable.insert(child).inserted {
                queue.append(child)
            }
        }
        return reachable
    }

    /// Every reachable file (path → contents) and directory, for assertions.
    func image() -> CrashableFileSystem.Image {
        var image = CrashableFileSystem.Image(files: [:], directories: ["/"])
        var queue: [(Int, String)] = [(FileTree.root, "")]
        var seen: Set<Int> = [FileTree.root]
        while let (inode, prefix) = queue.popLast() {
            for (name, child) in nodes[inode]?.entries ?? [:] {
                guard let node = nodes[child] else { continue }
                let path = prefix + "/" + name
                switch node.kind {
                case .file: image.files[path] = node.data
                case .directory:
                    image.directories.insert(path)
                    if seen.insert(child).inserted { queue.append((child, path)) }
                }
            }
        }
        return image
    }
}
