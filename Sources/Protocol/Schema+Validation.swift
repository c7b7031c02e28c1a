extension Schema {
  /// Checks a value a client sent, throwing -32602 that names the value's
  /// full path (`query.rect[2]`) and says what was expected.
  ///
  /// In an object, a member sent as `null` counts as absent unless its schema
  /// allows `null`, as the daemon has always read params.
  public func validate(_ value: JSON, at path: String) throws(RPCError) {
    switch shape {
    case .any: return
    case .null:
      guard value.isNull else { throw mismatch(path, value) }
    case .boolean:
      guard case .bool = value else { throw mismatch(path, value) }
    case .integer(let minimum, let maximum):
      guard case .number(let number) = value else { throw mismatch(path, value) }
      guard let integer = number.integralValue else {
        throw .invalidParams(field: path, reason: "expected an integer, got \(number.text)")
      }
      try Self.check(integer, minimum, maximum, text: number.text, at: path)
    case .number(let minimum, let maximum):
      guard case .number(let number) = value, let double = number.doubleValue, double.isFinite
      else { throw mismatch(path, value) }
      try Self.check(double, minimum, maximum, text: number.text, at: path)
    case .string(let minLength, let maxLength, _):
      guard case .string(let string) = value else { throw mismatch(path, value) }
      if let minLength, string.count < minLength {
        guard minLength > 1 else { throw .invalidParams(field: path, reason: "must not be empty") }
        throw .invalidParams(field: path, reason: "shorter than \(minLength) characters")
      }
      if let maxLength, string.count > maxLength {
        throw .invalidParams(field: path, reason: "longer than \(maxLength) characters")
      }
    case .choice(let values):
      guard case .string(let string) = value else { throw mismatch(path, value) }
      guard values.contains(string) else {
        let allowed = values.map { "\"\($0)\"" }.joined(separator: ", ")
        guard let near = NearestName.suggestion(for: string, among: values) else {
          throw .invalidParams(field: path, reason: "must be one of \(allowed)")
        }
        throw .invalidParams(
          field: path, reason: "must be one of \(allowed); did you mean \"\(near)\"?")
      }
    case .constant(let constant):
      guard value == JSON(constant) else {
        throw .invalidParams(field: path, reason: "must be \"\(constant)\"")
      }
    case .array(let items, let minItems, let maxItems):
      guard case .array(let elements) = value else { throw mismatch(path, value) }
      if let minItems, let maxItems, minItems == maxItems, elements.count != minItems {
        throw .invalidParams(
          field: path, reason: "expected \(minItems) values, got \(elements.count)")
      }
      if let minItems, elements.count < minItems {
        throw .invalidParams(field: path, reason: "expected at least \(minItems) values")
      }
      if let maxItems, elements.count > maxItems {
        throw .invalidParams(field: path, reason: "expected at most \(maxItems) values")
      }
      for (offset, element) in elements.enumerated() {
        try items.validate(element, at: "\(path)[\(offset)]")
      }
    case .object(let shape):
      guard case .object(let object) = value else { throw mismatch(path, value) }
      try shape.validate(object, at: path)
    case .map(let values):
      guard case .object(let object) = value else { throw mismatch(path, value) }
      for (name, member) in object { try values.validate(member, at: Self.join(path, name)) }
    case .nullable(let schema):
      if !value.isNull { try schema.validate(value, at: path) }
    case .oneOf(let schemas):
      // The shape whose type the value has says best what is wrong with it.
      let candidates = schemas.filter { $0.admitsType(of: value) }
      if candidates.count == 1 {
        try candidates[0].validate(value, at: path)
        return
      }
      for schema in candidates {
        do throws(RPCError) {
          try schema.validate(value, at: path)
          return
        } catch {}
      }
      throw mismatch(path, value)
    case .dependent(let schema):
      guard schema.admitsType(of: value) else { throw mismatch(path, value) }
    case .reference, .described, .titled:
      preconditionFailure("shape resolves references, descriptions and titles")
    }
  }

  /// The path of member `name` of the value at `path` (no prefix at the top).
  static func join(_ path: String, _ name: String) -> String {
    path.isEmpty ? name : path + "." + name
  }

  /// What the schema expects, for messages: "an integer", "a string or null".
  var expectation: LocalizedText {
    switch shape {
    case .any: .phrase("any value")
    case .null: .phrase("null")
    case .boolean: .phrase("a boolean")
    case .integer: .phrase("an integer")
    case .number: .phrase("a number")
    case .string, .choice, .constant: .phrase("a string")
    case .array(let items, let minItems, let maxItems):
      if let minItems, minItems == maxItems {
        .phrase("an array of \(minItems) values")
      } else if case .string = items.shape {
        .phrase("an array of strings")
      } else {
        .phrase("an array")
      }
    case .object, .map: .phrase("an object")
    case .nullable(let schema): .phrase("\(schema.expectation) or null")
    case .oneOf(let schemas):
      schemas.map(\.expectation).reduce(into: [LocalizedText]()) {
        if !$0.contains($1) { $0.append($1) }
      }
      .reduce(nil) { (joined: LocalizedText?, next) in
        joined.map { .phrase("\($0) or \(next)") } ?? next
      } ?? .phrase("any value")
    case .dependent(let schema): schema.expectation
    case .reference, .described, .titled: preconditionFailure("shape resolves these")
    }
  }

  private func mismatch(_ path: String, _ value: JSON) -> RPCError {
    .invalidParams(field: path, reason: "expected \(expectation), got \(value.typeText)")
  }

  /// Whether a value of this JSON type could match (its contents aside).
  private func admitsType(of value: JSON) -> Bool {
    switch (shape, value) {
    case (.any, _), (.null, .null), (.boolean, .bool), (.integer, .number), (.number, .number),
      (.string, .string), (.choice, .string), (.constant, .string), (.array, .array),
      (.object, .object), (.map, .object):
      true
    case (.nullable(let schema), _): value.isNull || schema.admitsType(of: value)
    case (.oneOf(let schemas), _):
      schemas.contains { $0.admitsType(of: value) }
    case (.dependent(let schema), _): schema.admitsType(of: value)
    default: false
    }
  }

  private static func check<Value: Comparable & CustomStringConvertible>(
    _ value: Value, _ minimum: Value?, _ maximum: Value?, text: String, at path: String
  ) throws(RPCError) {
    switch (minimum, maximum) {
    case (let minimum?, let maximum?) where !(minimum...maximum).contains(value):
      throw .invalidParams(
        field: path, reason: "must be between \(minimum) and \(maximum), got \(text)")
    case (let minimum?, nil) where value < minimum:
      throw .invalidParams(field: path, reason: "must be at least \(minimum), got \(text)")
    case (nil, let maximum?) where value > maximum:
      throw .invalidParams(field: path, reason: "must be at most \(maximum), got \(text)")
    default: return
    }
  }
}

extension ObjectShape {
  /// Checks an object's members: unknown ones (when strict), missing
  /// required ones, and each member's value.
  public func validate(_ object: JSONObject, at path: String) throws(RPCError) {
    if strict {
      // Looked up by name without copying the member out.
      for (name, _) in object where !members.contains(where: { $0.name == name }) {
        throw .unknownParameter(
          field: Schema.join(path, name), expected: names,
          suggestion: NearestName.suggestion(for: name, among: names))
      }
    }
    // By index: each member read in place, not copied (its name, schema and
    // description counted up and down again) for each request.
    for index in members.indices {
      let value = object[members[index].name]
      guard let value, !value.isNull || members[index].schema.admitsNull else {
        if members[index].required {
          throw .invalidParams(
            field: Schema.join(path, members[index].name), reason: "is required")
        }
        continue
      }
      try members[index].schema.validate(value, at: Schema.join(path, members[index].name))
    }
  }
}

extension Schema {
  /// Whether `null` is a value of this schema rather than "absent".
  var admitsNull: Bool {
    switch shape {
    case .any, .null, .nullable: true
    case .oneOf(let schemas): schemas.contains(where: \.admitsNull)
    default: false
    }
  }
}
