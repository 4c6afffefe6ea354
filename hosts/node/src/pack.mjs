// Contract v2's string encodings (wit/rs-learn.wit): byte strings cross the boundary as one string.
// A blob: each byte the code point of its value (Latin-1). A pack: a list of byte strings, each of
// which may be absent: their lengths in decimal (`-` when absent) joined by `,`, `\n`, then the present
// items' bytes as one blob. Every code point of a blob is below U+0100, so JavaScript's UTF-16 indexes
// are byte offsets.

const bytesOf = (item) => (Buffer.isBuffer(item) ? item : Buffer.from(item.buffer, item.byteOffset, item.byteLength));

/** A list of byte strings (Uint8Array or Buffer; null/undefined: absent) as a pack. */
export function pack(items) {
  const lengths = [];
  const present = [];
  for (const item of items) {
    if (item === null || item === undefined) {
      lengths.push('-');
    } else {
      const bytes = bytesOf(item);
      lengths.push(String(bytes.length));
      present.push(bytes);
    }
  }
  return `${lengths.join(',')}\n${Buffer.concat(present).toString('latin1')}`;
}

/** The items of a pack (Buffers, null where absent); throws when it is not one. */
export function unpack(text) {
  if (typeof text !== 'string') throw new TypeError(`expected a string (a pack), got ${typeof text}`);
  const newline = text.indexOf('\n');
  if (newline < 0) throw new Error('a pack has no header line');
  const head = text.slice(0, newline);
  const body = text.slice(newline + 1);
  for (let i = 0; i < body.length; i++) {
    if (body.charCodeAt(i) > 0xff) throw new Error('a pack carries a code point above U+00FF');
  }
  const data = Buffer.from(body, 'latin1');
  if (head === '') {
    if (data.length) throw new Error('an empty pack carries bytes');
    return [];
  }
  const items = [];
  let at = 0;
  for (const length of head.split(',')) {
    if (length === '-') {
      items.push(null);
      continue;
    }
    if (!/^[0-9]+$/.test(length)) throw new Error(`a pack's length is not a number: ${JSON.stringify(length.slice(0, 20))}`);
    const end = at + Number(length);
    if (end > data.length) throw new Error(`a pack's lengths run past its ${data.length} bytes`);
    items.push(data.subarray(at, end));
    at = end;
  }
  if (at !== data.length) throw new Error(`a pack's lengths add up to ${at} bytes, not ${data.length}`);
  return items;
}

/** A pack of UTF-8 keys as strings. */
export function unpackKeys(text) {
  return unpack(text).map((key) => {
    if (key === null) throw new Error('a pack of keys has an absent item');
    return key.toString('utf8');
  });
}

/** A pack of key, value, ... as [key, value] pairs. */
export function unpackPairs(text) {
  const items = unpack(text);
  if (items.length % 2 || items.some((item) => item === null)) {
    throw new Error('a pack of pairs has an odd number of items or an absent one');
  }
  const out = [];
  for (let i = 0; i < items.length; i += 2) out.push([items[i].toString('utf8'), items[i + 1]]);
  return out;
}

/** [key, value] pairs (or {key, value} entries) as a pack of key, value, ... */
export function packPairs(entries) {
  const items = [];
  for (const entry of entries) {
    const [key, value] = Array.isArray(entry) ? entry : [entry.key, entry.value];
    items.push(Buffer.from(key, 'utf8'), value);
  }
  return pack(items);
}

/** A blob of little-endian f32s as a Float32Array. */
export function floatsOf(blob) {
  const data = Buffer.from(blob, 'latin1');
  if (data.length % 4) throw new Error(`a blob of f32s has ${data.length} bytes, not a multiple of 4`);
  const out = new Float32Array(data.length / 4);
  for (let i = 0; i < out.length; i++) out[i] = data.readFloatLE(4 * i);
  return out;
}

/** {key, score} hits as a pack of key, score (4 bytes, little-endian f32), ... */
export function packHits(hits) {
  const items = [];
  for (const { key, score } of hits) {
    const bytes = Buffer.alloc(4);
    bytes.writeFloatLE(score, 0);
    items.push(Buffer.from(key, 'utf8'), bytes);
  }
  return pack(items);
}
