import SCAEngine
import Testing

@Suite("Tracing settings")
struct TracingSettingsTests {
    @Test("off by default; every tracing.* key is a file key and an SCA_ variable")
    func defaultsAndEnvironment() throws {
        let loader = ConfigurationLoader()
        let defaults = try loader.load(file: nil, environment: [:], flags: [:]).tracing
        #expect(!defaults.enabled)
        #expect(defaults.endpoint == "http://127.0.0.1:4318/v1/traces")
        #expect(defaults.serviceName == "sca-server")
        #expect(defaults.encoding == .protobuf)
        #expect(defaults.sampleRatio == 1)
        let tracing = try loader.load(
            file: nil,
            environment: [
                "SCA_TRACING_ENABLED": "true", "SCA_TRACING_ENDPOINT": "https://collector.internal:4318/v1/traces",
                "SCA_TRACING_ENCODING": "json", "SCA_TRACING_SERVICE_NAME": "sca-eu-1", "SCA_TRACING_SAMPLE_RATIO": "0.25",
            ],
            flags: [:]
        ).tracing
        #expect(tracing.enabled)
        #expect(tracing.endpoint == "https://collector.internal:4318/v1/traces")
        #expect(tracing.encoding == .json)
        #expect(tracing.serviceName == "sca-eu-1")
        #expect(tracing.sampleRatio == 0.25)
    }

    @Test("a bad endpoint, ratio, encoding or name is refused at load with the setting's name")
    func refused() {
        let loader = ConfigurationLoader()
        let cases: [(flags: [String: String], says: String)] = [
            (["tracing.endpoint": "collector:4318"], "tracing.endpoint must be an http or https URL"),
            (["tracing.endpoint": "ftp://collector/v1/traces"], "tracing.endpoint must be an http or https URL"),
            (["tracing.endpoint": "https://user:secret@collector/v1/traces"], "tracing.endpoint must not carry a user or password"),
            (["tracing.sampleRatio": "1.5"], "tracing.sampleRatio"),
            (["tracing.sampleRatio": "all"], "tracing.sampleRatio"),
            (["tracing.encoding": "grpc"], "tracing.encoding must be protobuf or json"),
            (["tracing.serviceName": " "], "tracing.serviceName must not be empty"),
            (["tracing.enabled": "maybe"], "tracing.enabled must be true or false"),
        ]
        for (flags, says) in cases {
            #expect("\(flags)") {
                try loader.load(file: nil, environment: [:], flags: flags)
            } throws: { error in
                (error as? ConfigurationError)?.description.contains(says) == true
            }
        }
    }
}
