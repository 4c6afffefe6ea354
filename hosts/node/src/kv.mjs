// SqliteKV: the host-kv-* contract on one SQLite file, in the SAME on-disk format as the Python
// harness (host_harness/store/kv.py; normative text: docs/host-contract.md, "On-disk store format").
//
// * table `kv(ns TEXT, key TEXT, value BLOB, PRIMARY KEY (ns, key)) WITHOUT ROWID`, migrations
//   numbered by `PRAGMA user_version` (a new file gets them all, an older file is migrated by its
//   first write, never by a read), 8 KiB pages for new files, rollback-journal mode;
// * a read of a store that does not exist does not create it; a put of the stored value, or a
//   delete of a missing key, writes nothing;
// * the first access of a unit of work opens `BEGIN IMMEDIATE`; the owner commits or rolls back
//   once per export call (serialisable across processes, Python and Node alike). A store read while
//   it did not exist has no transaction to hold it: if another process creates it before this unit
//   of work first writes it, that write throws `StaleRead` and the owner runs the call again.
import { DatabaseSync } from 'node:sqlite';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { casefold } from './casefold.mjs';

export const MIGRATIONS = [
  // 1: the key-value table; keys are compared by BINARY collation = UTF-8 byte order.
  [
    'CREATE TABLE IF NOT EXISTS kv ( ns TEXT NOT NULL, key TEXT NOT NULL, value BLOB NOT NULL,' +
      ' PRIMARY KEY (ns, key)) WITHOUT ROWID',
  ],
  // 2: content digests of the vector namespaces (docs/host-contract.md, "Digests"). This host does
  // not keep them: the triggers make every digest it would change unknown, which is safe.
  [
    'CREATE TABLE IF NOT EXISTS kv_digest ( ns TEXT PRIMARY KEY, entries INTEGER NOT NULL, digest BLOB) WITHOUT ROWID',
    'CREATE TRIGGER IF NOT EXISTS kv_digest_INSERT AFTER INSERT ON kv WHEN substr(NEW.ns, 1, instr(NEW.ns || \'/\', \'/\') - 1) GLOB \'*vectors\' BEGIN UPDATE kv_digest SET digest = NULL WHERE ns = NEW.ns; END',
    'CREATE TRIGGER IF NOT EXISTS kv_digest_UPDATE AFTER UPDATE ON kv WHEN substr(NEW.ns, 1, instr(NEW.ns || \'/\', \'/\') - 1) GLOB \'*vectors\' BEGIN UPDATE kv_digest SET digest = NULL WHERE ns = NEW.ns; END',
    'CREATE TRIGGER IF NOT EXISTS kv_digest_DELETE AFTER DELETE ON kv WHEN substr(OLD.ns, 1, instr(OLD.ns || \'/\', \'/\') - 1) GLOB \'*vectors\' BEGIN UPDATE kv_digest SET digest = NULL WHERE ns = OLD.ns; END',
  ],
];
export const DEFAULT_BUSY_TIMEOUT_MS = 10_000;
export const PAGE_SIZE = 8192;

/** A contract error (bad namespace or key): answered as `err` by host-kv-put, never a failure. */
export class StoreError extends Error {}

/** The unit of work read a store as absent, and another process has written it since. */
export class StaleRead extends Error {}

const utf8 = new TextDecoder('utf-8'); // replacement on invalid bytes, like Python's errors="replace"

/** Namespaces and keys are non-empty strings without NUL and without lone surrogates. */
export function checkName(value, what) {
  if (typeof value !== 'string' || value === '') {
    throw new StoreError(`${what} must be a non-empty string, got ${JSON.stringify(value)}`);
  }
  if (value.includes('\0')) throw new StoreError(`${what} ${JSON.stringify(value)} contains NUL`);
  if (!value.isWellFormed()) {
    throw new StoreError(`${what} ${JSON.stringify(value)} is not valid Unicode (lone surrogate)`);
  }
}

/** Whether the key or the UTF-8 value contains the case-folded query. */
export function contains(key, value, foldedQ) {
  return casefold(key).includes(foldedQ) || casefold(utf8.decode(value)).includes(foldedQ);
}

function inode(path) {
  try {
    const st = statSync(path);
    return `${st.dev}:${st.ino}`;
  } catch {
    return null;
  }
}

export class SqliteKV {
  constructor(path, busyTimeoutMs = DEFAULT_BUSY_TIMEOUT_MS) {
    this.path = path;
    this.busyTimeoutMs = busyTimeoutMs;
    this.listeners = [];
    this.db = null;
    this.inode = null;
    this.inTransaction = false;
    this.dirty = new Set();
    this.stmts = null;
    this.readAbsent = false; // this unit of work read the store while it did not exist
    this.schema = 0; // the open file's schema version (an older file is migrated by its first write)
  }

  /** The connection inside a transaction; null if the file is absent and not to be created. */
  connection(create) {
    if (this.db !== null && !this.inTransaction && this.inode !== inode(this.path)) {
      this.close(); // the file was replaced (git checkout) or removed under us
    }
    if (this.db === null) {
      if (!create && !existsSync(this.path)) {
        this.readAbsent = true;
        return null;
      }
      this.open(create);
    }
    if (!this.inTransaction) {
      this.db.exec('BEGIN IMMEDIATE');
      this.inTransaction = true;
      if (this.readAbsent) {
        this.readAbsent = false;
        if (this.db.prepare('SELECT 1 FROM kv LIMIT 1').get() !== undefined) {
          this.rollback();
          throw new StaleRead(`${this.path} was created by another process while this call read it as absent`);
        }
      }
    }
    return this.db;
  }

  open(create) {
    if (create) mkdirSync(dirname(this.path), { recursive: true });
    const db = new DatabaseSync(this.path, { timeout: this.busyTimeoutMs });
    try {
      db.exec(`PRAGMA busy_timeout = ${Math.trunc(this.busyTimeoutMs)}`);
      db.prepare('PRAGMA journal_mode = DELETE').get();
      if (db.prepare('PRAGMA page_count').get().page_count === 0) {
        db.exec(`PRAGMA page_size = ${PAGE_SIZE}`); // only takes effect on a new file
        migrate(db);
      }
      this.schema = schemaVersion(db);
    } catch (error) {
      db.close();
      throw error;
    }
    this.db = db;
    this.inode = inode(this.path);
    this.stmts = {
      get: db.prepare('SELECT value FROM kv WHERE ns = ? AND key = ?'),
      upsert: db.prepare(
        'INSERT INTO kv (ns, key, value) VALUES (?, ?, ?) ON CONFLICT (ns, key) ' +
          'DO UPDATE SET value = excluded.value WHERE value IS NOT excluded.value',
      ),
      del: db.prepare('DELETE FROM kv WHERE ns = ? AND key = ?'),
      all: db.prepare('SELECT key, value FROM kv WHERE ns = ? ORDER BY key'),
      limited: db.prepare('SELECT key, value FROM kv WHERE ns = ? ORDER BY key LIMIT ?'),
      sized: db.prepare('SELECT key, value FROM kv WHERE ns = ? AND length(value) = ? ORDER BY key'),
      dataVersion: db.prepare('PRAGMA data_version'),
    };
    for (const listener of this.listeners) listener.reset();
  }

  commit() {
    if (this.db !== null && this.inTransaction) this.db.exec('COMMIT');
    this.inTransaction = false;
    this.dirty.clear();
    this.readAbsent = false;
  }

  rollback() {
    const dirty = this.dirty;
    this.dirty = new Set();
    this.readAbsent = false;
    if (this.db !== null && this.inTransaction) {
      this.inTransaction = false;
      this.db.exec('ROLLBACK');
      this.schema = schemaVersion(this.db); // a migration in the transaction is undone too
    }
    if (dirty.size) for (const listener of this.listeners) listener.rolledBack(dirty);
  }

  close() {
    if (this.db === null) return;
    try {
      this.rollback();
    } finally {
      this.db.close();
      this.db = null;
      this.stmts = null;
      this.inTransaction = false;
    }
  }

  /** `PRAGMA data_version` (changes when ANOTHER connection commits); null without a file. */
  dataVersion() {
    return this.connection(false) === null ? null : Number(this.stmts.dataVersion.get().data_version);
  }

  get(ns, key) {
    checkName(ns, 'namespace');
    checkName(key, 'key');
    if (this.connection(false) === null) return null;
    const row = this.stmts.get.get(ns, key);
    return row === undefined ? null : row.value;
  }

  /** Store `value` (empty deletes); return whether anything changed. */
  put(ns, key, value) {
    checkName(ns, 'namespace');
    checkName(key, 'key');
    if (this.connection(value.length > 0) === null) return false; // deleting from a missing store
    const row = this.stmts.get.get(ns, key);
    if (row === undefined ? value.length === 0 : Buffer.compare(row.value, value) === 0) return false;
    if (this.schema < MIGRATIONS.length) this.schema = applyMigrations(this.db); // rolled back with the call
    const { changes } = value.length > 0 ? this.stmts.upsert.run(ns, key, value) : this.stmts.del.run(ns, key);
    if (Number(changes) === 0) return false;
    this.dirty.add(ns);
    for (const listener of this.listeners) listener.changed(ns, key, value);
    return true;
  }

  query(ns, q, limit) {
    checkName(ns, 'namespace');
    if (this.connection(false) === null) return [];
    if (q === '') return limit ? this.stmts.limited.all(ns, limit) : this.stmts.all.all(ns);
    const folded = casefold(q);
    const out = [];
    for (const row of this.stmts.all.iterate(ns)) {
      if (contains(row.key, row.value, folded)) {
        out.push(row);
        if (out.length === limit) break;
      }
    }
    return out;
  }

  valuesOfSize(ns, size) {
    checkName(ns, 'namespace');
    return this.connection(false) === null ? [] : this.stmts.sized.all(ns, size);
  }
}

/** The file's schema version; a schema newer than this host is refused. */
export function schemaVersion(db) {
  const version = Number(db.prepare('PRAGMA user_version').get().user_version);
  if (version > MIGRATIONS.length) {
    throw new StoreError(`database schema ${version} is newer than this rs-learn (${MIGRATIONS.length})`);
  }
  return version;
}

/** Apply the pending migrations inside the caller's open write transaction; return the version. */
export function applyMigrations(db) {
  const version = schemaVersion(db); // read under the lock: another process may have migrated
  for (let number = version + 1; number <= MIGRATIONS.length; number++) {
    for (const statement of MIGRATIONS[number - 1]) db.exec(statement);
    db.exec(`PRAGMA user_version = ${number}`);
  }
  return MIGRATIONS.length;
}

/** Apply the pending migrations in a transaction of their own (a new file); writes nothing when current. */
export function migrate(db) {
  if (schemaVersion(db) === MIGRATIONS.length) return MIGRATIONS.length;
  db.exec('BEGIN IMMEDIATE');
  try {
    applyMigrations(db);
    db.exec('COMMIT');
  } catch (error) {
    db.exec('ROLLBACK');
    throw error;
  }
  return MIGRATIONS.length;
}
