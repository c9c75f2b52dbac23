import SCACore

// Decoupled operations.
extension Problem {
    /// Also for another user's or another client's operation: whether it exists is not told.
    static let operationNotFound = Problem(status: 404, code: .operationNotFound, title: "Operation not found")

    static func operationClosed(_ status: OperationStatus) -> Problem {
        Problem(
            status: 409, code: .operationClosed, title: "Operation closed",
            detail: "The operation is \(status.rawValue); it cannot change any more.")
    }

    package static let operationNoDevice = Problem(
        status: 409, code: .operationNoDevice, title: "No device to ask",
        detail: "The user has no active device with a biometric key.")

    static func deviceRequestInvalid(_ detail: String) -> Problem {
        Problem(status: 401, code: .deviceRequestInvalid, title: "Device request refused", detail: detail)
    }
}
