/// Every method the daemon serves besides the lifecycle messages
/// (`initialize`, `initialized`, `shutdown`, `exit`, `$/cancelRequest`),
/// which the `Connection` handles itself. Kept alphabetical; `openrpc.json`
/// lists the same names (a test checks it).
enum MethodRegistry {
  static let all: [Method] = [
    DaemonEcho.method,
    DaemonSessions.method,
    DaemonSleep.method,
    DaemonStatus.method,
    FeedsClose.method,
    FeedsItems.method,
    FeedsLoadMore.method,
    FeedsOpen.method,
    FeedsRefresh.method,
    ImagesGet.method,
    PhotosImage.method,
    PhotosList.method,
    PlacesCategories.method,
    PlacesGet.method,
    PlacesImport.method,
    PlacesSearch.method,
    ProductsCreate.method,
    ProductsDelete.method,
    ProductsGet.method,
    ProductsList.method,
    ProductsUpdate.method,
    QuotesList.method,
    QuotesRandom.method,
    RPCDiscover.method,
    SuppliersList.method,
  ]
}
