extension WireJSONSlotEncoder: SingleValueEncodingContainer, WireJSONPrimitiveEncoding {
    func put(_ node: WireJSONNode) { set(node) }
}
