import ArgumentParser

/// How the simulated biometric prompt is answered.
enum BiometricAnswer: String, CaseIterable, ExpressibleByArgument, Sendable {
    /// Ask on the terminal.
    case ask
    /// As if the finger or face matched.
    case approve
    /// As if the user dismissed the prompt: the flow falls back to another category.
    case cancel
}
