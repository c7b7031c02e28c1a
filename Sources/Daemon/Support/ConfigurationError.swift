/// A bad value for a setting, reported on stderr with exit status 2.
struct ConfigurationError: Error, CustomStringConvertible {
  let description: String
}
