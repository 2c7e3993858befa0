/// The version of this build: `thunderstorm --version`, and the Debian package's version
/// (scripts/package-deb.sh reads it from this line unless it is given `--version`).
let thunderstormVersion = "0.9.0"
