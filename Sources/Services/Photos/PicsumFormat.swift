import Protocol

/// Reads the JSON of a Lorem Picsum-compatible server: the `/v2/list` array
/// and the `/id/{id}/info` object, each photo
/// `{id, author, width, height, url, download_url}`.
enum PicsumFormat {
  struct Malformed: Error {
    let reason: String
  }

  /// A listed photo and where its image is.
  struct Item {
    let photo: Photo
    let downloadURL: String
  }

  static func items(_ json: JSON) throws(Malformed) -> [Item] {
    guard let array = json.arrayValue else { throw Malformed(reason: "the list is not an array") }
    var items: [Item] = []
    items.reserveCapacity(array.count)
    for (index, element) in array.enumerated() {
      items.append(try item(element, at: "[\(index)]"))
    }
    return items
  }

  static func item(_ json: JSON, at path: String = "") throws(Malformed) -> Item {
    guard json.objectValue != nil else { throw Malformed(reason: "\(path) is not an object") }
    let id: String
    if let text = json["id"]?.stringValue, !text.isEmpty {
      id = text
    } else if let number = json["id"]?.intValue {
      id = String(number)
    } else {
      throw Malformed(reason: "\(path).id is missing")
    }
    guard let width = json["width"]?.intValue, width > 0,
      let height = json["height"]?.intValue, height > 0
    else { throw Malformed(reason: "\(path).width or height is not a positive integer") }
    guard let download = json["download_url"]?.stringValue ?? json["url"]?.stringValue,
      download.lowercased().hasPrefix("http://") || download.lowercased().hasPrefix("https://")
    else { throw Malformed(reason: "\(path).download_url is not an http(s) URL") }
    let author = json["author"]?.stringValue.flatMap {
      MetadataText.decode(Array($0.utf8), latin1: false)
    }
    // Picsum's `url` is the photo's page when `download_url` is the image.
    let page = json["download_url"] == nil ? nil : json["url"]?.stringValue.flatMap(httpURL)
    return Item(
      photo: Photo(
        id: id, author: author, width: width, height: height, url: download, source: .picsum,
        pageURL: page),
      downloadURL: download)
  }
}

/// `text` when it is an http(s) URL.
private func httpURL(_ text: String) -> String? {
  let lowered = text.lowercased()
  return lowered.hasPrefix("http://") || lowered.hasPrefix("https://") ? text : nil
}
