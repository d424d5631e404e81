/// The one place the version is written: `workout --version` prints it, and the Makefile
/// reads it from here for the Debian package's name and control file.
enum Version {
    static let number = "0.1.0"
}
