import Protocol

/// The contracts of the two requests the `Connection` answers itself.
enum LifecycleContracts {
  static let clientInfo: Param<JSON?> = .value(
    "clientInfo",
    .object(
      [Member("name", .string(maxLength: 200)), Member("version", .string(maxLength: 200))],
      strict: false), "who the client is, for logs")
  static let clientId: Param<String?> = .string(
    "clientId", maxLength: 200,
    "the per-device UUID sent to the product upstream; without it the daemon uses a UUID "
      + "persisted in its data dir")

  static let locale: Param<String?> = .string(
    "locale", maxLength: 100,
    "the language of error messages (ko or en; a tag such as ko-KR counts as ko); other "
      + "languages get English; default from the daemon's LC_ALL, LC_MESSAGES or LANG, else en")

  /// Lenient: editors send many fields of their own.
  static let initialize = MethodContract(
    "initialize",
    "Starts the session (Language Server Protocol conventions); every other request before it "
      + "gets -32002.",
    params: [clientInfo, clientId, locale],
    result: MethodResult(
      "InitializeResult",
      .object([
        Member(
          "serverInfo",
          .object([
            Member("name", .constant("catalogd"), required: true),
            Member("version", .string, required: true),
          ]), required: true),
        Member("clientId", .string, required: true),
        Member("capabilities", .reference(DaemonSchemas.capabilities), required: true),
      ])), lenient: true)

  static let shutdown = MethodContract(
    "shutdown",
    "Ends the session: answered once every earlier request is answered; later requests get "
      + "-32600. Follow it with the exit notification.",
    result: MethodResult("null", .null), lenient: true)
}
