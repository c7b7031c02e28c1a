/// Why an upstream's payload is not what the service expects (a missing
/// field, a wrong type), with the path of the value in `reason`.
struct MalformedPayload: Error, Sendable, Hashable {
  let reason: String
}
