#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import SCACore

/// The user's terminal. Prompts and notes go to standard error and answers come from standard
/// input, so standard output carries only results and stays clean for scripts.
enum Terminal {
    /// Terminal settings to put back if the user interrupts a hidden-input prompt. Only touched
    /// from the one thread that prompts, and from the SIGINT handler.
    nonisolated(unsafe) private static var savedAttributes: termios?

    static var inputIsTerminal: Bool { isatty(STDIN_FILENO) == 1 }

    /// Spinners and countdowns only make sense when a person watches the output.
    static var outputIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 && isatty(STDERR_FILENO) == 1 }

    /// A text from the server or the disk as it may be printed: code points that could reorder
    /// or hide the line (a right-to-left override, escapes, invisible characters) written out
    /// as `<U+202E>`, so what the user reads is what is there.
    static func shown(_ text: String) -> String {
        DisplayText.escaped(text)
    }

    static func say(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// Shows `prompt` and reads one line; nil when standard input has ended.
    static func ask(_ prompt: String) -> String? {
        FileHandle.standardError.write(Data(prompt.utf8))
        guard let line = readLine(strippingNewline: true) else {
            // End the prompt's line, so what follows (an error) starts on its own.
            FileHandle.standardError.write(Data("\n".utf8))
            return nil
        }
        return line
    }

    /// Like `ask`, without echo when standard input is a terminal; a plain line otherwise
    /// (piped input has nothing to hide from a screen).
    static func askSecret(_ prompt: String) -> String? {
        guard inputIsTerminal else { return ask(prompt) }
        var attributes = termios()
        guard tcgetattr(STDIN_FILENO, &attributes) == 0 else { return ask(prompt) }
        savedAttributes = attributes
        // An interrupted prompt must not leave the shell without echo.
        signal(SIGINT) { _ in
            Terminal.restoreEcho()
            _exit(130)
        }
        var silent = attributes
        silent.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &silent)
        defer {
            restoreEcho()
            signal(SIGINT, SIG_DFL)
            FileHandle.standardError.write(Data("\n".utf8))
        }
        FileHandle.standardError.write(Data(prompt.utf8))
        return readLine(strippingNewline: true)
    }

    /// Puts back the terminal settings saved by a hidden prompt, if one is in progress.
    static func restoreEcho() {
        guard var attributes = savedAttributes else { return }
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &attributes)
        savedAttributes = nil
    }
}
