/// The embedded catalog's schema, by migration (`PRAGMA user_version`).
///
/// - Every sort has an index that ends with the id, with and without the
///   supplier filter, so a keyset page is one index range scan.
/// - `products_fts` (FTS5, trigram tokenizer) finds substrings of three or more
///   characters in the Korean and English names; shorter queries scan.
/// - `search_text` holds both names lowercased by Swift (all scripts, not
///   just ASCII), for the 1–2 character queries that LIKE scans.
/// - `product_counts` is kept by triggers, so `totalCount` of an unfiltered or
///   supplier-filtered list is one row read, not a count of a million rows.
/// - Product ids are never reused (AUTOINCREMENT), so a client holding a
///   deleted product's id can never see it name another product.
/// - `changes` logs every mutation with the daemon that made it, so other
///   daemons on the same file can tell their clients what changed.
/// - `search_changes` (version 3) logs what every changed row was and became
///   for the search, so a kept match count is brought up to date instead of
///   counted again (see `version3`).
enum CatalogSchema {
  static let version1 = """
    CREATE TABLE suppliers (
      id INTEGER PRIMARY KEY,
      name TEXT NOT NULL UNIQUE
    );
    CREATE TABLE products (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      name_ko TEXT NOT NULL,
      name_en TEXT,
      price INTEGER NOT NULL CHECK (price >= 0),
      supplier_id INTEGER REFERENCES suppliers(id) ON DELETE SET NULL,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL,
      version INTEGER NOT NULL DEFAULT 1,
      -- Both names, lowercased with Unicode case folding (SQLite folds ASCII
      -- only), for queries too short for the trigram index.
      search_text TEXT NOT NULL
    );
    CREATE INDEX products_by_newest ON products(created_at DESC, id DESC);
    CREATE INDEX products_by_price ON products(price, id);
    CREATE INDEX products_by_name ON products(name_ko, id);
    CREATE INDEX products_by_supplier_newest ON products(supplier_id, created_at DESC, id DESC);
    CREATE INDEX products_by_supplier_price ON products(supplier_id, price, id);
    CREATE INDEX products_by_supplier_name ON products(supplier_id, name_ko, id);

    CREATE VIRTUAL TABLE products_fts USING fts5(
      name_ko, name_en, content = 'products', content_rowid = 'id', tokenize = 'trigram'
    );
    CREATE TRIGGER products_fts_insert AFTER INSERT ON products BEGIN
      INSERT INTO products_fts(rowid, name_ko, name_en) VALUES (new.id, new.name_ko, new.name_en);
    END;
    CREATE TRIGGER products_fts_delete AFTER DELETE ON products BEGIN
      INSERT INTO products_fts(products_fts, rowid, name_ko, name_en)
        VALUES ('delete', old.id, old.name_ko, old.name_en);
    END;
    CREATE TRIGGER products_fts_update AFTER UPDATE OF name_ko, name_en ON products BEGIN
      INSERT INTO products_fts(products_fts, rowid, name_ko, name_en)
        VALUES ('delete', old.id, old.name_ko, old.name_en);
      INSERT INTO products_fts(rowid, name_ko, name_en) VALUES (new.id, new.name_ko, new.name_en);
    END;

    -- Row -1 counts every product; row 0 those without supplier; others per supplier.
    CREATE TABLE product_counts (supplier_id INTEGER PRIMARY KEY, n INTEGER NOT NULL);
    INSERT INTO product_counts VALUES (-1, 0), (0, 0);
    CREATE TRIGGER product_counts_insert AFTER INSERT ON products BEGIN
      UPDATE product_counts SET n = n + 1 WHERE supplier_id = -1;
      INSERT INTO product_counts VALUES (coalesce(new.supplier_id, 0), 1)
        ON CONFLICT(supplier_id) DO UPDATE SET n = n + 1;
    END;
    CREATE TRIGGER product_counts_delete AFTER DELETE ON products BEGIN
      UPDATE product_counts SET n = n - 1 WHERE supplier_id IN (-1, coalesce(old.supplier_id, 0));
    END;
    CREATE TRIGGER product_counts_move AFTER UPDATE OF supplier_id ON products
      WHEN coalesce(old.supplier_id, 0) != coalesce(new.supplier_id, 0) BEGIN
      UPDATE product_counts SET n = n - 1 WHERE supplier_id = coalesce(old.supplier_id, 0);
      INSERT INTO product_counts VALUES (coalesce(new.supplier_id, 0), 1)
        ON CONFLICT(supplier_id) DO UPDATE SET n = n + 1;
    END;

    CREATE TABLE changes (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      reason TEXT NOT NULL,
      product_id INTEGER NOT NULL,
      origin TEXT NOT NULL,
      -- Microseconds since the epoch: a daemon that starts watching reports
      -- the changes made from that moment on, even those committed while it
      -- was still opening the file.
      at INTEGER NOT NULL
    );
    """

  /// A search's match count, once counted, is kept with the newest `seq` of
  /// `search_changes` in the same snapshot. After a change the count is that
  /// count plus the matching rows logged since: +1 for a row as it became, -1
  /// for a row as it was. Writers take turns and `seq` grows with each row
  /// (AUTOINCREMENT, rolled back with its transaction), so the rows after a
  /// snapshot's newest are exactly the changes it did not see. Recounting a
  /// broad search ('premium') reads every match; this reads the few rows
  /// changed since.
  ///
  /// - Only changes that touch what a search matches (the search text or the
  ///   supplier) are logged; a price change leaves kept counts as they are.
  /// - Every 10,000th row prunes the 10,000 before it and records that in
  ///   `search_changes_pruned`: a count kept from before is counted again.
  ///   The log never holds more than 20,000 rows.
  static let version3 = """
    CREATE TABLE search_changes (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      supplier_id INTEGER,
      search_text TEXT NOT NULL,
      delta INTEGER NOT NULL
    );
    CREATE TABLE search_changes_pruned (through INTEGER NOT NULL);
    INSERT INTO search_changes_pruned VALUES (0);
    CREATE TRIGGER search_changes_insert AFTER INSERT ON products BEGIN
      INSERT INTO search_changes (supplier_id, search_text, delta)
        VALUES (new.supplier_id, new.search_text, 1);
    END;
    CREATE TRIGGER search_changes_delete AFTER DELETE ON products BEGIN
      INSERT INTO search_changes (supplier_id, search_text, delta)
        VALUES (old.supplier_id, old.search_text, -1);
    END;
    CREATE TRIGGER search_changes_update AFTER UPDATE OF search_text, supplier_id ON products
      WHEN old.search_text IS NOT new.search_text OR old.supplier_id IS NOT new.supplier_id BEGIN
      INSERT INTO search_changes (supplier_id, search_text, delta)
        VALUES (old.supplier_id, old.search_text, -1), (new.supplier_id, new.search_text, 1);
    END;
    CREATE TRIGGER search_changes_prune AFTER INSERT ON search_changes
      WHEN new.seq % 10000 = 0 BEGIN
      DELETE FROM search_changes WHERE seq <= new.seq - 10000;
      UPDATE search_changes_pruned SET through = new.seq - 10000;
    END;
    """

  /// Each product's optional picture: an http, https or file URL
  /// (`ProductValidation.imageURL`).
  /// The index finds the product of an image URL for `images/get`; the demo
  /// pictures' stored form stays out of it (a benchmark's million products
  /// all have one).
  static let version4 = """
    ALTER TABLE products ADD COLUMN image_url TEXT;
    CREATE INDEX products_by_image ON products(image_url)
      WHERE image_url NOT GLOB 'catalogd-demo:*';
    """
}
