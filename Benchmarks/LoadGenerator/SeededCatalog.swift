import Glibc

/// A fresh data dir holding a catalog of `count` generated products.
///
/// The catalog is seeded once per count into `.build/bench-data/products-N`
/// (with `catalogd seed products N`) and copied for each run, so that what a
/// run writes never changes the next one.
func seededCatalog(_ count: Int, binary: String) throws -> TempDirectory {
  let seeded = ".build/bench-data/products-\(count)"
  if access(seeded + "/catalog.sqlite", R_OK) != 0 {
    printError("seeding \(count) products into \(seeded) (once)…")
    try spawnAndWait(binary, ["seed", "products", String(count), "--data-dir", seeded])
  }
  let work = try TempDirectory()
  try spawnAndWait("/bin/cp", ["-r", seeded + "/.", work.path])
  return work
}
