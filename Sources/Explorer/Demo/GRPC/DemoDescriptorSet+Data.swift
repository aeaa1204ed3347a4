import Foundation

extension DemoDescriptorSet {
    /// The serialized `google.protobuf.FileDescriptorSet` of `demo.proto` and its imports.
    static let data: Data = {
        guard let data = Data(base64Encoded: base64) else {
            preconditionFailure("DemoDescriptorSet.base64 is not base64: run scripts/generate-demo-grpc again.")
        }
        return data
    }()
}
