// HostServices: the six host imports for one project, with one transaction per export call.
//
// Contract (docs/host-contract.md): the imports never throw into the guest. `host-kv-put` answers a
// contract error (bad namespace or key, the read-only `host` namespace) as `err(message)` and lets
// the guest decide; any other failure (SQLite busy beyond the timeout, a corrupt file, a bug) is
// recorded, answered neutrally (`none`, `[]`, `0`, or `err` for a put) and fails the whole export
// call when it returns: everything the call wrote is rolled back.
import { Project, loadMemoryConfig, loadRedact } from './project.mjs';
import { DEFAULT_BUSY_TIMEOUT_MS, SqliteKV, StaleRead, StoreError, checkName, contains } from './kv.mjs';
import { VectorIndex } from './vectors.mjs';
import { casefold } from './casefold.mjs';
import { floatsOf, pack, packHits, packPairs, unpackKeys, unpackPairs } from './pack.mjs';

const U64_MAX = 2n ** 64n - 1n;
const MAX_LOGS = 10_000;
const EMPTY_PACK = '\n';
const NEUTRAL = { 'host-kv-query': EMPTY_PACK, 'host-vec-search': EMPTY_PACK, 'host-now-ms': 0n, 'host-log': undefined };

export class HostFailure extends Error {}

export class HostServices {
  constructor(root, { scope = null, clock = () => Date.now(), busyTimeoutMs = DEFAULT_BUSY_TIMEOUT_MS, memoryConfig } = {}) {
    this.project = new Project(root, { scope, memoryConfig: memoryConfig ?? loadMemoryConfig(root), redact: loadRedact(root) });
    this.clock = clock;
    this.busyTimeoutMs = busyTimeoutMs;
    this.stores = new Map(); // db path -> {kv, vectors}
    this.touched = new Map();
    this.failures = [];
    this.logs = [];
    this.onLog = (level, msg) => {
      if (level >= 2) process.stderr.write(`rs_learn.guest: ${msg}\n`);
    };
  }

  store(db) {
    let entry = this.stores.get(db);
    if (entry === undefined) {
      const kv = new SqliteKV(db, this.busyTimeoutMs);
      entry = { kv, vectors: new VectorIndex(kv) };
      this.stores.set(db, entry);
    }
    this.touched.set(db, entry.kv);
    return entry;
  }

  // the Host protocol (plain JS values; the component binding below adapts them to jco's)

  kvGet(ns, key) {
    checkName(ns, 'namespace');
    if (Project.isReserved(ns)) {
      checkName(key, 'key');
      return this.project.hostValue(ns, key);
    }
    const route = this.project.route(ns);
    return this.store(route.db).kv.get(route.ns, key);
  }

  kvPut(ns, key, value) {
    const route = this.project.route(ns);
    this.store(route.db).kv.put(route.ns, key, value);
  }

  kvGetMany(ns, keys) {
    return keys.map((key) => this.kvGet(ns, key));
  }

  /** Every key is checked before any entry is written (a contract error writes nothing). */
  kvPutMany(ns, entries) {
    checkName(ns, 'namespace');
    for (const [key] of entries) checkName(key, 'key');
    for (const [key, value] of entries) this.kvPut(ns, key, value);
  }

  kvQuery(ns, q, limit) {
    checkName(ns, 'namespace');
    if (Project.isReserved(ns)) {
      const folded = casefold(q);
      const entries = this.project.hostEntries(ns).filter((e) => contains(e.key, e.value, folded));
      return limit ? entries.slice(0, limit) : entries;
    }
    const route = this.project.route(ns);
    return this.store(route.db).kv.query(route.ns, q, limit);
  }

  vecSearch(ns, query, k) {
    checkName(ns, 'namespace');
    if (Project.isReserved(ns)) return [];
    const route = this.project.route(ns);
    return this.store(route.db).vectors.search(route.ns, query, k);
  }

  log(level, msg) {
    if (this.logs.length >= MAX_LOGS) this.logs.shift();
    this.logs.push({ level, msg });
    this.onLog(level, msg);
  }

  nowMs() {
    const now = BigInt(Math.trunc(Number(this.clock())));
    return now < 0n ? 0n : now > U64_MAX ? U64_MAX : now;
  }

  // transactions: one per export call

  begin() {
    if (this.touched.size) this.rollback();
    this.failures = [];
    this.staleRead = false; // a store this call read as absent was created meanwhile: run it again
  }

  commit() {
    try {
      for (const kv of this.touched.values()) kv.commit();
    } catch (error) {
      this.rollback();
      throw new HostFailure(`internal: host failure: commit failed: ${describe(error)}`);
    }
    this.touched.clear();
  }

  rollback() {
    for (const kv of this.touched.values()) {
      try {
        kv.rollback();
      } catch (error) {
        this.recordFailure('rollback', error);
        kv.close();
      }
    }
    this.touched.clear();
  }

  failure() {
    return this.failures.length ? `internal: host failure: ${this.failures.join('; ')}` : null;
  }

  recordFailure(where, error) {
    if (error instanceof StaleRead) this.staleRead = true;
    const message = `${where}: ${describe(error)}`;
    this.failures.push(message);
    process.stderr.write(`rs_learn.guest: host import failed: ${message}\n`);
  }

  close() {
    this.rollback();
    for (const { kv } of this.stores.values()) kv.close();
    this.stores.clear();
  }

  /** The six imports in jco's shape (`--instantiation async`), contract v2's packs: none of them ever throws. */
  imports() {
    const guard = (name, fn, neutral = () => NEUTRAL[name]) => (...args) => {
      try {
        return fn(...args);
      } catch (error) {
        if (name === 'host-kv-put') {
          if (!(error instanceof StoreError)) this.recordFailure(name, error);
          return { tag: 'err', val: error instanceof Error ? error.message : String(error) };
        }
        this.recordFailure(name, error);
        return neutral(...args);
      }
    };
    // a failed get answers every key it can read as absent (the call fails when it returns)
    const noValues = (_ns, keys) => {
      try {
        return pack(unpackKeys(keys).map(() => null));
      } catch {
        return EMPTY_PACK;
      }
    };
    const fns = {
      'host-kv-get': [(ns, keys) => pack(this.kvGetMany(ns, unpackKeys(keys))), noValues],
      'host-kv-put': [(ns, entries) => {
        this.kvPutMany(ns, unpackPairs(entries));
        return { tag: 'ok', val: undefined };
      }],
      'host-kv-query': [(ns, q, limit) => packPairs(this.kvQuery(ns, q, limit))],
      'host-vec-search': [(ns, query, k) => packHits(this.vecSearch(ns, floatsOf(query), k))],
      'host-log': [(level, msg) => this.log(level, msg)],
      'host-now-ms': [() => this.nowMs()],
    };
    return Object.fromEntries(Object.entries(fns).map(([name, [fn, neutral]]) => [name, { default: guard(name, fn, neutral) }]));
  }
}

function describe(error) {
  return error instanceof Error ? `${error.constructor.name}: ${error.message}` : String(error);
}
