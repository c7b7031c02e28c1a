import Glibc

/// The libpq functions the daemon calls, looked up with `dlsym` in
/// `libpq.so.5`, opened on first use.
///
/// libpq brings about twenty libraries of its own (TLS, Kerberos, LDAP):
/// linking it made every daemon start slower and larger, used or not
/// (Benchmarks/README.md, "Figures behind the code's constants"). So, as for
/// libcurl, the daemon does not link it: the
/// `Services` module declares the few types it needs itself, and
/// `LibPQSignatureTests` (which imports the `CLibPQ` system library, the
/// headers of libpq-dev) checks every declaration here against libpq-fe.h.
struct LibPQ: @unchecked Sendable {
  // `@unchecked Sendable`: C function pointers, immutable once loaded.
  typealias Connection = OpaquePointer?
  typealias Result = OpaquePointer?
  typealias Text = UnsafeMutablePointer<CChar>?
  /// `ConnStatusType`, `ExecStatusType`: C enums, 32 bits.
  typealias Status = UInt32
  typealias Oid = UInt32
  typealias NoticeProcessor =
    @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?) -> Void

  /// `CONNECTION_OK`.
  static let connectionOK: Status = 0
  /// `PGRES_COMMAND_OK`, `PGRES_TUPLES_OK`.
  static let commandOK: Status = 1
  static let tuplesOK: Status = 2
  /// `PG_DIAG_SQLSTATE`, `PG_DIAG_MESSAGE_PRIMARY`.
  static let sqlStateField = Int32(UInt8(ascii: "C"))
  static let messageField = Int32(UInt8(ascii: "M"))

  /// `PGnotify`: `relname`, `be_pid`, `extra`, `next`; the daemon reads the
  /// first and the third (offsets checked by the tests).
  static let notifyRelnameOffset = 0
  static let notifyExtraOffset = 2 * MemoryLayout<UnsafeRawPointer>.stride

  let connectdbParams:
    @convention(c) (
      UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<UnsafePointer<CChar>?>?, Int32
    ) -> Connection
  let status: @convention(c) (Connection) -> Status
  let errorMessage: @convention(c) (Connection) -> Text
  let finish: @convention(c) (Connection) -> Void
  let setNoticeProcessor:
    @convention(c) (Connection, NoticeProcessor?, UnsafeMutableRawPointer?) -> NoticeProcessor?
  let consumeInput: @convention(c) (Connection) -> Int32
  let socket: @convention(c) (Connection) -> Int32
  let execParams:
    @convention(c) (
      Connection, UnsafePointer<CChar>?, Int32, UnsafePointer<Oid>?,
      UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>?, UnsafePointer<Int32>?, Int32
    ) -> Result
  let exec: @convention(c) (Connection, UnsafePointer<CChar>?) -> Result
  let prepare:
    @convention(c) (
      Connection, UnsafePointer<CChar>?, UnsafePointer<CChar>?, Int32, UnsafePointer<Oid>?
    ) -> Result
  let execPrepared:
    @convention(c) (
      Connection, UnsafePointer<CChar>?, Int32, UnsafePointer<UnsafePointer<CChar>?>?,
      UnsafePointer<Int32>?, UnsafePointer<Int32>?, Int32
    ) -> Result
  let notifies: @convention(c) (Connection) -> UnsafeMutableRawPointer?
  let freemem: @convention(c) (UnsafeMutableRawPointer?) -> Void
  let clear: @convention(c) (Result) -> Void
  let resultStatus: @convention(c) (Result) -> Status
  let ntuples: @convention(c) (Result) -> Int32
  let nfields: @convention(c) (Result) -> Int32
  let getisnull: @convention(c) (Result, Int32, Int32) -> Int32
  let getvalue: @convention(c) (Result, Int32, Int32) -> Text
  let cmdTuples: @convention(c) (Result) -> Text
  let resultErrorField: @convention(c) (Result, Int32) -> Text

  /// The library, loaded by the first caller; the reason when it cannot be.
  static func loaded() throws(PostgresError) -> LibPQ {
    switch shared {
    case .success(let library): return library
    case .failure(let error): throw error
    }
  }

  private static let shared: Swift.Result<LibPQ, PostgresError> = {
    guard let handle = dlopen("libpq.so.5", RTLD_NOW | RTLD_LOCAL) else {
      return .failure(Self.unavailable(dlerror().map { String(cString: $0) } ?? "dlopen failed"))
    }
    return Swift.Result { () throws(PostgresError) in try LibPQ(handle) }
  }()

  private init(_ handle: UnsafeMutableRawPointer) throws(PostgresError) {
    func symbol<T>(_ name: String) throws(PostgresError) -> T {
      guard let address = dlsym(handle, name) else {
        throw LibPQ.unavailable("libpq.so.5 has no \(name)")
      }
      return unsafeBitCast(address, to: T.self)
    }
    connectdbParams = try symbol("PQconnectdbParams")
    status = try symbol("PQstatus")
    errorMessage = try symbol("PQerrorMessage")
    finish = try symbol("PQfinish")
    setNoticeProcessor = try symbol("PQsetNoticeProcessor")
    consumeInput = try symbol("PQconsumeInput")
    socket = try symbol("PQsocket")
    execParams = try symbol("PQexecParams")
    exec = try symbol("PQexec")
    prepare = try symbol("PQprepare")
    execPrepared = try symbol("PQexecPrepared")
    notifies = try symbol("PQnotifies")
    freemem = try symbol("PQfreemem")
    clear = try symbol("PQclear")
    resultStatus = try symbol("PQresultStatus")
    ntuples = try symbol("PQntuples")
    nfields = try symbol("PQnfields")
    getisnull = try symbol("PQgetisnull")
    getvalue = try symbol("PQgetvalue")
    cmdTuples = try symbol("PQcmdTuples")
    resultErrorField = try symbol("PQresultErrorField")
  }

  private static func unavailable(_ reason: String) -> PostgresError {
    PostgresError(kind: .connection, message: "libpq could not be loaded: \(reason)")
  }
}
