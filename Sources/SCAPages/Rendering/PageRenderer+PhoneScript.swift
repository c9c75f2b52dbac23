import Hummingbird
import SCAEngine

// "Approve on your phone".
extension PageRenderer {
    /// `/hosted/phone.js`, with the same headers as the pages.
    static func phoneScript() -> Response {
        var headers = securityHeaders(formTarget: nil)
        headers[.contentType] = "text/javascript; charset=utf-8"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: PhoneApprovalTemplates.script)))
    }
}
