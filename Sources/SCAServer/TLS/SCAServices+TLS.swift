import Logging
import SCAEngine

extension SCAServices {
    /// Reads the files of `tls.certificateFile`, `tls.privateKeyFile` and `tls.clientCAFile`
    /// and checks them as a start-up would, so that `serve` fails at once with the reason
    /// instead of after opening the database.
    /// - Throws: `ConfigurationError` naming the file and what is wrong with it.
    package static func checkTLSFiles(_ configuration: ServerConfiguration) throws {
        let tls = configuration.tls
        if let certificateFile = tls.certificateFile, let privateKeyFile = tls.privateKeyFile {
            _ = try ServerCertificate(ServerCertificate.read(certificateFile: certificateFile, privateKeyFile: privateKeyFile))
        }
        if let clientCAFile = tls.clientCAFile { _ = try ClientCertificateAuthorities(file: clientCAFile) }
    }
}
