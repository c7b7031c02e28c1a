import Protocol
import Services
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// The services one daemon hosts, each on the backend its configuration selects.
final class ServiceHub: Sendable {
  let quotes: QuotesService
  let products: ProductsService
  let photos: PhotosService
  /// The session's feeds (server-side pagination over the services' lists).
  let feeds: FeedEngine
  let places: PlacesService
  /// The per-device UUID the product upstream receives; set by `initialize`.
  let clientIdentity = ClientIdentity()
  /// Sends notifications nobody asked for (changes made by other daemons);
  /// set by the serve command, used once the session is initialized.
  private let unsolicited = Mutex<UnsolicitedNotifications?>(nil)
  /// Set once the photos folder's changes are forwarded to feeds.
  private let followingPhotos = Atomic(false)

  init(configuration: Configuration) {
    let timeout = Duration.milliseconds(configuration.upstreamTimeoutMilliseconds)
    feeds = FeedEngine(maxOpenFeeds: configuration.maxOpenFeeds)
    quotes = QuotesService(
      backend: configuration.quotesURL.map { RemoteQuoteBackend(baseURL: $0, timeout: timeout) }
        ?? EmbeddedQuoteBackend())
    let identity = clientIdentity
    let productBackend: any ProductBackend
    if let databaseURL = configuration.databaseURL {
      productBackend = Self.postgresBackend(configuration, url: databaseURL)
    } else if let serverURL = configuration.serverURL {
      productBackend = GraphQLProductBackend(
        endpoint: serverURL, clientId: { identity.current ?? "" }, timeout: timeout)
    } else {
      productBackend = SQLiteProductBackend(
        path: configuration.dataDirectory + "/catalog.sqlite", origin: Self.instanceId)
    }
    products = ProductsService(backend: productBackend)
    if let photosURL = configuration.photosURL {
      photos = PhotosService(
        backend: PicsumPhotoBackend(
          baseURL: photosURL, cacheDirectory: configuration.dataDirectory + "/photo-cache",
          timeout: timeout))
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
  }

  /// The shared catalog on PostgreSQL. Nothing connects yet: the first
  /// products call (or the listener, after `initialize`) does.
  static func postgresBackend(_ configuration: Configuration, url: String)
    -> PostgresProductBackend
  {
    PostgresProductBackend(
      url: url, origin: instanceId,
      statementTimeout: .milliseconds(configuration.upstreamTimeoutMilliseconds),
      log: { Log.warn($0) })
  }

  /// The photo index's log lines (skipped files, scans) on the daemon's log.
  private static let photoLog: PhotoLog = { level, message, metadata in
    switch level {
    case .debug: Log.debug(message, metadata)
    case .info: Log.info(message, metadata)
    case .warn: Log.warn(message, metadata)
    }
  }

  /// Identifies this process among the daemons sharing a catalog file.
  static let instanceId = "\(getpid())-\(UInt64.random(in: 0...UInt64.max))"

  /// Where notifications of changes made elsewhere go, once `startWatching` runs.
  func setUnsolicitedNotifications(
    _ notify: @escaping @Sendable (String, JSON?) -> Void,
    all notifyAll: @escaping @Sendable (MessageRun) -> Void,
    locale: @escaping @Sendable () -> MessageLocale
  ) {
    unsolicited.withLock {
      $0 = UnsolicitedNotifications(one: notify, all: notifyAll, locale: locale)
    }
  }

  /// Starts forwarding changes made elsewhere (other daemons on the catalog);
  /// `initialize` calls it after its reply is written, so that opening the
  /// catalog never delays the handshake. Without a notifier (the `call`
  /// command) there is nobody to tell, and nothing starts.
  func startWatching() {
    guard let notifications = unsolicited.withLock({ $0 }) else { return }
    // Asked for here, not in the task: changes are reported from this moment on.
    let changes = products.backend.externalChanges()
    Task { [self] in
      for await change in changes {
        // The feeds first: a client told of a change finds it in its feeds.
        await FeedNotifications.productsChanged(
          change, self, notify: notifications.one, notifyAll: notifications.all,
          locale: notifications.locale())
        ProductNotifications.send(change, notifications.one)
      }
    }
  }

  /// Starts forwarding the photos folder's changes to the folder photos
  /// feeds, once: the first such feed asks, so a daemon whose client never
  /// opens one never watches the folder. The subscription is made before
  /// this returns, so a page read after it misses no change.
  func followPhotosFolder(_ folder: FolderPhotoBackend) {
    guard let notifications = unsolicited.withLock({ $0 }),
      !followingPhotos.exchange(true, ordering: .relaxed)
    else { return }
    let events = folder.events()
    let feeds = feeds
    Task {
      for await event in events {
        await FeedNotifications.sourceChanged(
          FeedSourceEvent(event), feeds, notify: notifications.one, notifyAll: notifications.all,
          method: FeedNotifications.itemsChanged, locale: notifications.locale())
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

/// Where notifications nobody asked for go: one at a time, or a run of written ones in one write.
struct UnsolicitedNotifications: Sendable {
  let one: @Sendable (String, JSON?) -> Void
  let all: @Sendable (MessageRun) -> Void
  /// The session's language, for the error of a reload that failed.
  let locale: @Sendable () -> MessageLocale
}

/// The client's per-device id, shared with the backends that send it upstream.
final class ClientIdentity: Sendable {
  /// Set by `initialize`.
  private let value = Mutex<String?>(nil)

  var current: String? { value.withLock { $0 } }

  func set(_ id: String) { value.withLock { $0 = id } }
}
