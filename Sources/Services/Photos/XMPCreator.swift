/// The author of an image as XMP says it: the first `rdf:li` of
/// `dc:creator`, the field Adobe's tools write as "Author" and exiftool
/// reads as Creator. GIF carries XMP in an application extension ("XMP
/// DataXMP"), which is how the sample GIFs name their authors.
enum XMPCreator {
  /// The GIF application identifier and authentication code of XMP.
  static let gifApplication = Array("XMP DataXMP".utf8)

  /// The longest packet read for the author.
  static let maxPacketBytes = 16_384

  /// An XMP packet naming `creator`.
  static func packet(creator: String) -> [UInt8] {
    let escaped = creator.replacing("&", with: "&amp;").replacing("<", with: "&lt;")
      .replacing(">", with: "&gt;")
    return Array(
      ("<?xpacket begin=\"\u{FEFF}\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?>"
        + "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\">"
        + "<rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">"
        + "<rdf:Description rdf:about=\"\" xmlns:dc=\"http://purl.org/dc/elements/1.1/\">"
        + "<dc:creator><rdf:Seq><rdf:li>" + escaped + "</rdf:li></rdf:Seq></dc:creator>"
        + "</rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end=\"r\"?>").utf8)
  }

  /// A GIF application extension holding `packet`: its bytes as they are,
  /// then the "magic trailer" the XMP specification gives (bytes 0x01, 0xFF
  /// down to 0x00, and a block terminator), so that a reader that takes the
  /// packet for sub-blocks still lands on the terminator.
  static func gifExtension(_ packet: [UInt8]) -> [UInt8] {
    [0x21, 0xFF, UInt8(gifApplication.count)] + gifApplication + packet + [0x01]
      + (0...255).reversed().map { UInt8($0) } + [0x00]
  }

  /// The creator `packet` names, made fit to show; nil when it names none.
  static func creator(in packet: [UInt8]) -> String? {
    guard let field = range(of: "<dc:creator", in: packet[...]),
      let item = range(of: "<rdf:li", in: packet[field.upperBound...]),
      let open = packet[item.upperBound...].firstIndex(of: UInt8(ascii: ">")),
      let close = range(of: "</rdf:li>", in: packet[(open + 1)...])
    else { return nil }
    return MetadataText.decode(unescaped(packet[(open + 1)..<close.lowerBound]), latin1: false)
  }

  /// Where `text` first occurs in `bytes`.
  private static func range(of text: String, in bytes: ArraySlice<UInt8>) -> Range<Int>? {
    let needle = Array(text.utf8)
    guard bytes.count >= needle.count else { return nil }
    var start = bytes.startIndex
    while start <= bytes.endIndex - needle.count {
      if bytes[start..<start + needle.count].elementsEqual(needle) {
        return start..<start + needle.count
      }
      start += 1
    }
    return nil
  }

  /// XML text with its five named entities and numeric references decoded.
  static func unescaped(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
    let named: [String: String] = [
      "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'",
    ]
    var output: [UInt8] = []
    var index = bytes.startIndex
    while index < bytes.endIndex {
      guard bytes[index] == UInt8(ascii: "&"),
        let semicolon = bytes[index...].prefix(12).firstIndex(of: UInt8(ascii: ";"))
      else {
        output.append(bytes[index])
        index += 1
        continue
      }
      let name = String(decoding: bytes[(index + 1)..<semicolon], as: UTF8.self)
      let scalar: Unicode.Scalar?
      if name.hasPrefix("#x") || name.hasPrefix("#X") {
        scalar = UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init)
      } else if name.hasPrefix("#") {
        scalar = UInt32(name.dropFirst(), radix: 10).flatMap(Unicode.Scalar.init)
      } else {
        scalar = named[name].flatMap(\.unicodeScalars.first)
      }
      guard let scalar else {
        output.append(bytes[index])
        index += 1
        continue
      }
      output += Array(String(scalar).utf8)
      index = semicolon + 1
    }
    return output
  }
}
