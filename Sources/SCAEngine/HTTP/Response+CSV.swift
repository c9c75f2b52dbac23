import Hummingbird

extension Response {
    /// A CSV download (RFC 4180, with its header row) saved as `filename`.
    package static func csv(_ text: String, filename: String) -> Response {
        Response(
            status: .ok,
            headers: [
                .contentType: "text/csv; charset=utf-8; header=present",
                .contentDisposition: "attachment; filename=\"\(filename)\"", .cacheControl: "no-store",
            ],
            body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }
}
