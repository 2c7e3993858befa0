import HAL
import SystemPackage

extension ZoneRules {
    /// The largest file read as TZif. Real zones are 0.1–4 KiB (Debian 12's largest "fat" file is
    /// under 4 KiB); the cap keeps a wrong path (a device node, a huge file) from filling RAM.
    public static let maximumFileSize: Int64 = 64 * 1024

    /// Loads the zone `identifier` (`Europe/Berlin`) from the tzdata directory `root`.
    ///
    /// The name comes from a weather service (Open-Meteo's `timezone`) or a setting, so it is
    /// checked before it touches the file system: only `A-Za-z0-9/_+-`, no leading, trailing or
    /// doubled `/`, at most 255 bytes. With `.` excluded no component can be `..`, so the path
    /// cannot leave `root`. (A symlink inside `root` can; tzdata's own links stay inside it.)
    public static func load<Files: FileSystem>(
        identifier: String, files: inout Files, root: FilePath = "/usr/share/zoneinfo"
    ) -> Result<ZoneRules, ZoneError> {
        guard isSafeIdentifier(identifier) else { return .failure(.invalidIdentifier(identifier)) }
        return loadFile(root.appending(identifier), identifier: identifier, files: &files)
    }

    /// Loads the system zone from `/etc/localtime`.
    ///
    /// The identifier is taken from `/etc/timezone` (Debian writes the IANA name there) when that
    /// names a zone under `root` whose rules are identical to the ones just read; otherwise it is
    /// "localtime". (The symlink target would be better, but `FileSystem` has no `readlink`.)
    public static func loadLocalZone<Files: FileSystem>(
        files: inout Files,
        path: FilePath = "/etc/localtime",
        nameFile: FilePath = "/etc/timezone",
        root: FilePath = "/usr/share/zoneinfo"
    ) -> Result<ZoneRules, ZoneError> {
        let local: ZoneRules
        switch loadFile(path, identifier: "localtime", files: &files) {
        case .success(let rules): local = rules
        case .failure(let error): return .failure(error)
        }
        guard case .success(let nameBytes) = readSmallFile(nameFile, identifier: "localtime", limit: 256, files: &files)
        else { return .success(local) }
        var name = nameBytes[...]
        while let last = name.last, last == UInt8(ascii: "\n") || last == UInt8(ascii: " ") { name.removeLast() }
        let identifier = String(decoding: name, as: UTF8.self)
        guard case .success(let named) = load(identifier: identifier, files: &files, root: root),
            named.hasSameRules(as: local)
        else { return .success(local) }
        return .success(named)
    }

    static func isSafeIdentifier(_ identifier: String) -> Bool {
        let bytes = identifier.utf8
        guard !bytes.isEmpty, bytes.count <= 255, bytes.first != UInt8(ascii: "/"), bytes.last != UInt8(ascii: "/")
        else { return false }
        var previous: UInt8 = 0
        for byte in bytes {
            let allowed = (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "+")
                || byte == UInt8(ascii: "-")
            guard allowed, !(byte == UInt8(ascii: "/") && previous == byte) else { return false }
            previous = byte
        }
        return true
    }

    private static func loadFile<Files: FileSystem>(
        _ path: FilePath, identifier: String, files: inout Files
    ) -> Result<ZoneRules, ZoneError> {
        switch readSmallFile(path, identifier: identifier, limit: maximumFileSize, files: &files) {
        case .success(let bytes): return parse(tzif: bytes, identifier: identifier)
        case .failure(let error): return .failure(error)
        }
    }

    /// The whole file, if it exists and is at most `limit` bytes.
    private static func readSmallFile<Files: FileSystem>(
        _ path: FilePath, identifier: String, limit: Int64, files: inout Files
    ) -> Result<[UInt8], ZoneError> {
        do throws(FileSystemError) {
            // A file that shrank since fstat reads short; the TZif checks then catch it.
            switch try files.contents(of: path, limit: limit) {
            case .bytes(let bytes): return .success(bytes)
            case .tooLarge(let size): return .failure(.tooLarge(identifier: identifier, size: size))
            }
        } catch {
            switch error.kind {
            // A directory (`Europe`) opens on Linux but fails to read with EISDIR.
            case .notFound, .isDirectory, .notDirectory: return .failure(.notFound(identifier))
            default: return .failure(.fileSystem(identifier: identifier, error))
            }
        }
    }
}
