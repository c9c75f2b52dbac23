/// The answer to presenting an SMS or e-mail code.
public enum CodeConsumption: Sendable, Equatable {
    /// The code matched, was unused and unexpired: it is now used.
    case consumed
    /// The code matched one used already: a right code presented again, not a guess. It is
    /// refused all the same ("used once" stays strict).
    case alreadyUsed
    /// No unused, unexpired code matched: a wrong (or expired) code.
    case rejected
}
