import SCACore

extension Problem {
    static let sessionNotFound = Problem(
        status: 404, code: .sessionNotFound, title: "Session not found", detail: "You have no such open session.")
    static let partnerAccessNotFound = Problem(
        status: 404, code: .partnerAccessNotFound, title: "Partner access not found",
        detail: "That partner holds no open session or consent of yours.")
    static let confirmationNothingPending = Problem(
        status: 404, code: .confirmationNothingPending, title: "Nothing to confirm",
        detail: "Nothing waits for a code: ask for the change again.")

    static func confirmationCodeInvalid(remaining: Int) -> Problem {
        Problem(
            status: 422, code: .confirmationCodeInvalid, title: "Wrong code",
            detail: remaining > 0 ? "That code does not confirm the change." : "That code was wrong too often; the change is dropped.",
            remainingAttempts: remaining)
    }
}
