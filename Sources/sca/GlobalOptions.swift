import ArgumentParser

/// Options every command takes: where this "phone" keeps its state and which server it talks to.
struct GlobalOptions: ParsableArguments {
    @Option(help: ArgumentHelp("State directory: device keys, tokens, authenticator seeds.", valueName: "dir"))
    var home: String?

    @Option(help: ArgumentHelp(
        "Server URL (default: SCA_SERVER, else the server this device was activated with, else http://127.0.0.1:8080).",
        valueName: "url"))
    var server: String?
}
