/// Why a text is not JSON, and where.
public struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
  public enum Kind: Sendable, Hashable {
    case unexpectedEnd
    case unexpectedByte(UInt8)
    case tooDeep(limit: Int)
    case invalidNumber
    case invalidEscape
    case loneSurrogate
    case controlCharacterInString
    case invalidUTF8
    case trailingData
  }

  public let kind: Kind
  /// Byte offset in the text where the problem was found.
  public let offset: Int

  public var description: String {
    switch kind {
    case .unexpectedEnd: "unexpected end of input at byte \(offset)"
    case .unexpectedByte(let byte):
      if byte >= 0x21 && byte < 0x7F {
        "unexpected character '\(Character(Unicode.Scalar(byte)))' at byte \(offset)"
      } else {
        "unexpected byte 0x\(String(byte, radix: 16)) at byte \(offset)"
      }
    case .tooDeep(let limit): "nesting deeper than \(limit) levels at byte \(offset)"
    case .invalidNumber: "invalid number at byte \(offset)"
    case .invalidEscape: "invalid escape sequence at byte \(offset)"
    case .loneSurrogate: "unpaired UTF-16 surrogate in \\u escape at byte \(offset)"
    case .controlCharacterInString: "unescaped control character in string at byte \(offset)"
    case .invalidUTF8: "invalid UTF-8 in string at byte \(offset)"
    case .trailingData: "data after the JSON text at byte \(offset)"
    }
  }
}
