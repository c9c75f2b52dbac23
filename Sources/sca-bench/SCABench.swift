@main
struct SCABenchPlaceholder { static func main() {} }
