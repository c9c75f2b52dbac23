import Foundation

/// Progress and diagnostics go to standard error, so standard output holds only the report
/// (with `--json`, a script reads its last line).
enum StandardError {
    static func note(_ line: String) {
        FileHandle.standardError.write(Data(("sca-bench: " + line + "\n").utf8))
    }
}
