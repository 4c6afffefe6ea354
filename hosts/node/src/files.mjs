// Project file digests, served read-only as `host` keys `file/<relative path>` (docs/host-contract.md,
// section 8), as the Python harness serves them (host_harness/fs/filedigest.py):
//   {"sha256": "<hex>"}  a regular file of the project, at most MAX_FILE_BYTES;
//   {"exists": false}    no regular file at that path;
//   null                 the host cannot say: not a plain relative path, a link on the way (never followed),
//                        a larger file, an error reading it.
// Node has no openat: each directory on the way is checked with lstat (a link refuses the path), and the
// file is opened with O_NOFOLLOW and must be the file lstat saw. Digests are cached by
// (device, inode, size, mtime), so a recall that checks the same files again does not read them again.
import { closeSync, constants, fstatSync, lstatSync, openSync, readSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';

export const FILE_PREFIX = 'file/';
export const MAX_FILE_BYTES = 16 * 1024 * 1024;
const MAX_CACHED = 4096;
const CHUNK = 1 << 20;

export class FileDigests {
  constructor(root) {
    this.root = root;
    this.cache = new Map();
    this.hashed = 0;
  }

  answer(path) {
    const parts = path.split('/');
    if (parts.some((part) => part === '' || part === '.' || part === '..')) return null;
    let where = this.root;
    for (const [i, part] of parts.entries()) {
      where = join(where, part);
      let st;
      try {
        st = lstatSync(where, { bigint: true });
      } catch (error) {
        return error.code === 'ENOENT' || error.code === 'ENOTDIR' ? { exists: false } : null;
      }
      if (st.isSymbolicLink()) return null;
      const last = i === parts.length - 1;
      if (!last && !st.isDirectory()) return { exists: false };
      if (last && !st.isFile()) return { exists: false };
    }
    return this.digest(where);
  }

  digest(file) {
    let fd;
    try {
      fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    } catch {
      return null;
    }
    try {
      const st = fstatSync(fd, { bigint: true });
      if (!st.isFile()) return { exists: false };
      if (st.size > BigInt(MAX_FILE_BYTES)) return null;
      const identity = `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}`;
      let known = this.cache.get(identity);
      if (known === undefined) {
        const sha = createHash('sha256');
        const buffer = Buffer.alloc(CHUNK);
        let read;
        while ((read = readSync(fd, buffer, 0, CHUNK, null)) > 0) sha.update(buffer.subarray(0, read));
        if (this.cache.size >= MAX_CACHED) this.cache.clear();
        known = sha.digest('hex');
        this.cache.set(identity, known);
        this.hashed += 1;
      }
      return { sha256: known };
    } catch {
      return null;
    } finally {
      closeSync(fd);
    }
  }
}
