// VectorIndex: host-vec-search over the values of one SqliteKV, cosine over Float32Array rows.
//
// A namespace's vectors are its values that are little-endian f32 vectors of the query's dimension
// (byte length = 4 * dim); anything else, and any vector with a NaN or infinite component, is not a
// candidate. Rows are L2-normalised once per (namespace, dimension) and kept in sync: puts of the
// open transaction update them, a rollback drops the changed namespaces, another connection's commit
// (a new `PRAGMA data_version`) drops everything. Dot products accumulate in f64 and the score is
// rounded to f32 (the WIT type); zero vectors score 0; ties break by key in code point order
// (= UTF-8 byte order, the Python harness's order).

function normalised(bytes, dim) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const row = new Float32Array(dim);
  let sum = 0;
  for (let i = 0; i < dim; i++) {
    const x = view.getFloat32(4 * i, true);
    if (!Number.isFinite(x)) return null; // corrupt, not a vector
    row[i] = x;
    sum += x * x;
  }
  const exact = Math.sqrt(sum); // f64 norm, f32 division (f64 for absurd norms): as the Python harness
  const norm = exact > 1e37 ? exact : Math.fround(exact);
  if (norm > 0) for (let i = 0; i < dim; i++) row[i] = row[i] / norm;
  return row;
}

/** Compare two strings by code point (JS `<` compares UTF-16 units, which differs above U+FFFF). */
export function compareKeys(a, b) {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.codePointAt(i);
    const y = b.codePointAt(i);
    if (x !== y) return x < y ? -1 : 1;
    if (x > 0xffff) i++;
  }
  return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
}

class VectorTable {
  constructor(dim, rows) {
    this.dim = dim;
    this.keys = [];
    this.position = new Map();
    this.data = new Float32Array(Math.max(16, rows.length) * dim);
    for (const { key, value } of rows) this.set(key, value);
  }

  set(key, value) {
    const row = value.length === 4 * this.dim ? normalised(value, this.dim) : null;
    if (row === null) return this.remove(key);
    let i = this.position.get(key);
    if (i === undefined) {
      i = this.keys.length;
      if ((i + 1) * this.dim > this.data.length) {
        const grown = new Float32Array(2 * this.data.length);
        grown.set(this.data);
        this.data = grown;
      }
      this.keys.push(key);
      this.position.set(key, i);
    }
    this.data.set(row, i * this.dim);
  }

  remove(key) {
    const i = this.position.get(key);
    if (i === undefined) return;
    this.position.delete(key);
    const last = this.keys.length - 1;
    if (i !== last) {
      const moved = this.keys[last];
      this.data.copyWithin(i * this.dim, last * this.dim, (last + 1) * this.dim);
      this.keys[i] = moved;
      this.position.set(moved, i);
    }
    this.keys.pop();
  }

  search(query, k) {
    const { dim, data, keys } = this;
    const scored = new Array(keys.length);
    for (let r = 0; r < keys.length; r++) {
      let dot = 0;
      const base = r * dim;
      for (let i = 0; i < dim; i++) dot += data[base + i] * query[i];
      scored[r] = { key: keys[r], score: Math.fround(dot) };
    }
    scored.sort((a, b) => b.score - a.score || compareKeys(a.key, b.key));
    return scored.slice(0, k);
  }
}

export class VectorIndex {
  constructor(kv) {
    this.kv = kv;
    this.tables = new Map(); // `${dim}\0${ns}` -> VectorTable
    this.version = null;
    kv.listeners.push(this);
  }

  search(ns, query, k) {
    const dim = query.length;
    if (k <= 0 || dim === 0) return [];
    let sum = 0;
    for (const x of query) {
      if (!Number.isFinite(x)) return [];
      sum += x * x;
    }
    const version = this.kv.dataVersion();
    if (version === null) return [];
    if (version !== this.version) {
      this.tables.clear(); // another connection committed
      this.version = version;
    }
    const id = `${dim}\0${ns}`;
    let table = this.tables.get(id);
    if (table === undefined) {
      table = new VectorTable(dim, this.kv.valuesOfSize(ns, 4 * dim));
      this.tables.set(id, table);
    }
    const norm = Math.sqrt(sum);
    const q = new Float32Array(dim);
    for (let i = 0; i < dim; i++) q[i] = norm ? query[i] / norm : 0;
    return table.search(q, k);
  }

  changed(ns, key, value) {
    for (const [id, table] of this.tables) if (id.slice(id.indexOf('\0') + 1) === ns) table.set(key, value);
  }

  rolledBack(namespaces) {
    for (const id of [...this.tables.keys()]) if (namespaces.has(id.slice(id.indexOf('\0') + 1))) this.tables.delete(id);
  }

  reset() {
    this.tables.clear();
    this.version = null;
  }
}
