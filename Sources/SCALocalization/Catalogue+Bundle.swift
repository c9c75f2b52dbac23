import Foundation

extension Catalogue {
    /// The catalogue shipped in this module's `Catalogue` folder, one file per language.
    ///
    /// A missing file leaves the language to English's fallback here; the catalogue test
    /// (``validate()``) is what refuses it.
    /// - Throws: ``CatalogueProblems`` when a file does not decode.
    package static func bundled() throws(CatalogueProblems) -> Catalogue {
        try Catalogue(files: bundledFiles())
    }

    /// The raw files, for the catalogue test to report a missing one.
    package static func bundledFiles() -> [Language: Data] {
        var files: [Language: Data] = [:]
        for language in Language.allCases {
            if let data = try? Data(contentsOf: folder.appendingPathComponent("\(language.rawValue).json")) {
                files[language] = data
            }
        }
        return files
    }

    /// `.copy("Catalogue")` keeps the folder whole in the resource bundle.
    private static var folder: URL {
        Bundle.module.resourceURL!.appendingPathComponent("Catalogue", isDirectory: true)
    }
}
