import Hummingbird
import SCACore

/// Sign up or in with a one-time code: `POST /v1/signup-or-in` opens the challenge,
/// `POST /v1/me/enrolment` adds a new user's second element with the enrolment token.
struct SignUpRoutes<Context: RequestContext> {
    let signUp: SignUpService
    let maxBodySize: Int

    func register(on router: some RouterMethods<Context>) {
        router.post("v1/signup-or-in") { request, _ in
            let body = try await request.decodeJSON(SignUpOrInRequest.self, limit: maxBodySize)
            return try Response.json(try await signUp.start(body), status: .created)
        }
        router.post("v1/me/enrolment") { request, _ in
            let body = try await request.decodeJSON(EnrolmentRequest.self, limit: maxBodySize)
            return try Response.json(try await signUp.enrol(body, authorization: request.headers[.authorization]))
        }
    }
}
