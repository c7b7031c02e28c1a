import Glibc
import Services

/// A fresh data dir holding a catalog of `count` generated products.
///
/// The catalog is seeded once per count into `.build/bench-data/products-N-vV`
/// (with `catalogd seed products N`; V is `DemoCatalog.bulkVersion`, so a
/// changed generator seeds anew) and copied for each run, so that what a run
/// writes never changes the next one.
func seededCatalog(_ count: Int, binary: String) throws -> TempDirectory {
  let seeded = ".build/bench-data/products-\(count)-v\(DemoCatalog.bulkVersion)"
  if access(seeded + "/catalog.sqlite", R_OK) != 0 {
    printError("seeding \(count) products into \(seeded) (once)…")
    try spawnAndWait(binary, ["seed", "products", String(count), "--data-dir", seeded])
  }
  let work = try TempDirectory()
  try spawnAndWait("/bin/cp", ["-r", seeded + "/.", work.path])
  return work
}
