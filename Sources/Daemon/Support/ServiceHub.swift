import Protocol
import Services
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// The services one daemon hosts, each on the backend its configuration
/// selects, shared by all its sessions (one in a stdio daemon, one per client
/// in a shared daemon).
final class ServiceHub: Sendable {
  let quotes: QuotesService
  let products: ProductsService
  let photos: PhotosService
  let places: PlacesService
  let images: ImagesService
  /// The clients served now, each with its feeds and notifications.
  let sessions = SessionRegistry()
  /// Set once changes made by other daemons are forwarded to the sessions.
  private let watchingProducts = Atomic(false)
  /// Whether `products.backend.waitUntilWatching()` has returned once.
  private let watchingConfirmed = Atomic(false)
  /// Set once the photos folder's changes are forwarded to feeds.
  private let followingPhotos = Atomic(false)

  init(configuration: Configuration) {
    let timeout = Duration.milliseconds(configuration.upstreamTimeoutMilliseconds)
    quotes = QuotesService(
      backend: configuration.quotesURL.map { RemoteQuoteBackend(baseURL: $0, timeout: timeout) }
        ?? EmbeddedQuoteBackend())
    let productBackend: any ProductBackend
    if let databaseURL = configuration.databaseURL {
      productBackend = Self.postgresBackend(configuration, url: databaseURL)
    } else if let serverURL = configuration.serverURL {
      productBackend = GraphQLProductBackend(
        endpoint: serverURL, clientId: { Session.current?.clientIdentity.current ?? "" },
        timeout: timeout)
    } else {
      productBackend = SQLiteProductBackend(
        path: configuration.dataDirectory + "/catalog.sqlite", origin: Self.instanceId)
    }
    products = ProductsService(backend: productBackend)
    // One image cache and one record of served URLs for the whole daemon:
    // photos/image and images/get share the files, and so do all sessions.
    let imageCache = ImageCache(
      directory: configuration.dataDirectory + "/image-cache",
      limitBytes: configuration.imageCacheMegabytes << 20,
      formerDirectory: configuration.dataDirectory + "/photo-cache")
    let servedImageURLs = ServedImageURLs()
    if let photosURL = configuration.photosURL {
      photos = PhotosService(
        backend: PicsumPhotoBackend(
          baseURL: photosURL, cache: imageCache, served: servedImageURLs, timeout: timeout))
    } else {
      // Without a folder of their own, clients see generated samples in the data dir.
      photos = PhotosService(
        backend: FolderPhotoBackend(
          folder: configuration.photosDirectory ?? configuration.dataDirectory + "/photos",
          databasePath: configuration.dataDirectory + "/photos.sqlite",
          populatesSamples: configuration.photosDirectory == nil, log: Self.photoLog))
    }
    if let placesURL = configuration.placesURL {
      places = PlacesService(
        backend: RemotePlaceBackend(
          baseURL: placesURL, apiKey: configuration.kakaoRestAPIKey ?? "", timeout: timeout))
    } else {
      places = PlacesService(
        backend: PlaceStore(path: configuration.dataDirectory + "/places.sqlite"))
    }
    images = ImagesService(
      cache: imageCache, served: servedImageURLs,
      authorities: [
        photos,
        ProductImageURLs { [products] url in try await products.handedOut(imageURL: url.text) },
      ], timeout: timeout)
  }

  /// The shared catalog on PostgreSQL. Nothing connects yet: the first
  /// products call (or the listener, after `initialize`) does.
  static func postgresBackend(_ configuration: Configuration, url: String)
    -> PostgresProductBackend
  {
    PostgresProductBackend(
      url: url, origin: instanceId,
      statementTimeout: .milliseconds(configuration.upstreamTimeoutMilliseconds),
      log: { Log.warn($0) }, images: DemoProductImages(dataDirectory: configuration.dataDirectory))
  }

  /// The photo index's log lines (skipped files, scans) on the daemon's log.
  private static let photoLog: PhotoLog = { level, message, metadata in
    switch level {
    case .debug: Log.debug(message, metadata)
    case .info: Log.info(message, metadata)
    case .warn: Log.warn(message, metadata)
    }
  }

  /// How long `initialize`'s reply waits for the daemon to watch other
  /// daemons' changes.
  static let watchingWait = 1.0

  /// Identifies this process among the daemons sharing a catalog file.
  static let instanceId = "\(getpid())-\(UInt64.random(in: 0...UInt64.max))"

  /// Starts forwarding changes made elsewhere (other daemons on the catalog)
  /// to every initialized session, once, and returns when every change
  /// committed from then on will be forwarded: `initialize` calls it before
  /// its reply, as clients are told of such changes "from initialize on".
  /// Opening the SQLite catalog never delays the handshake (its changes are
  /// read from the log, from the moment watching began); PostgreSQL's are
  /// heard only while listening, so the reply waits for the listener's first
  /// attempt, as every request does, but at most `watchingWait`: a server
  /// that does not answer fails that attempt only after the connect timeout.
  func startWatching() {
    if !watchingProducts.exchange(true, ordering: .relaxed) {
      // Asked for here, not in the task: changes are reported from this moment on.
      let changes = products.backend.externalChanges()
      Task { [self] in
        // A poll's changes at a time: one turn of each session's feed engine.
        for await batch in changes {
          await ProductNotifications.broadcast(batch, to: sessions)
        }
      }
    }
    // Once the backend said it watches, it says so at once ever after (the
    // listener's first attempt is behind it): later `initialize`s start no task.
    guard !watchingConfirmed.load(ordering: .acquiring) else { return }
    let listening = runBlocking(atMost: Self.watchingWait) { [products] () -> Bool in
      await products.backend.waitUntilWatching()
      return true
    }
    if listening == nil {
      Log.warn(
        "initialize replied before the products database listened: "
          + "changes other daemons make meanwhile may go unreported")
    } else {
      watchingConfirmed.store(true, ordering: .releasing)
    }
  }

  /// Starts forwarding the photos folder's changes to the folder photos
  /// feeds of every session, once: the first such feed asks, so a daemon
  /// whose clients never open one never watches the folder. The subscription
  /// is made before this returns, so a page read after it misses no change.
  func followPhotosFolder(_ folder: FolderPhotoBackend) {
    guard !followingPhotos.exchange(true, ordering: .relaxed) else { return }
    let events = folder.events()
    Task { [sessions] in
      for await event in events {
        for session in sessions.initialized {
          await FeedNotifications.sourceChanged(
            FeedSourceEvent(event), session, method: FeedNotifications.itemsChanged)
        }
      }
    }
  }

  /// Each service's backend kind, for `daemon/status`.
  var backends: JSON {
    [
      "quotes": JSON(quotes.backend.kind), "products": JSON(products.backend.kind),
      "photos": JSON(photos.backend.kind), "places": JSON(places.backend.kind),
    ]
  }

  /// What `initialize` announces: the services, their backends, and the
  /// methods and notifications the registries declare for each.
  var capabilities: JSON {
    let services = [
      ("quotes", quotes.backend.kind), ("products", products.backend.kind),
      ("photos", photos.backend.kind), ("places", places.backend.kind), ("feeds", "embedded"),
      ("images", "embedded"),
    ]
    return .object(
      JSONObject(
        services.map { name, backend in
          let methods = MethodRegistry.all.filter { $0.contract.service == name }.map(\.name)
          let notifications = NotificationRegistry.all.filter { $0.service == name }.map(\.name)
          return (
            name,
            [
              "backend": JSON(backend), "methods": .array(methods.map { JSON($0) }),
              "notifications": .array(notifications.sorted().map { JSON($0) }),
            ]
          )
        }))
  }
}

/// The client's per-device id, shared with the backends that send it upstream.
final class ClientIdentity: Sendable {
  /// Set by `initialize`.
  private let value = Mutex<String?>(nil)

  var current: String? { value.withLock { $0 } }

  func set(_ id: String) { value.withLock { $0 = id } }
}
