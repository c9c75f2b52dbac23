/// Every mistake found in a set of catalogue files, thrown together.
package struct CatalogueProblems: Error, Sendable, CustomStringConvertible {
    package let problems: [CatalogueProblem]

    package var description: String { problems.map(\.description).joined(separator: "\n") }
}
