extension Optional {
    /// `flatMap` with an asynchronous transform, which the standard library's does not take:
    /// loads something only when there is an id to load it by.
    func asyncFlatMap<Mapped>(_ transform: (Wrapped) async throws -> Mapped?) async rethrows -> Mapped? {
        guard let value = self else { return nil }
        return try await transform(value)
    }
}
