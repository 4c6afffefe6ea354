// Unit tests of the Node host's own parts (run by tests/test_node_host.py: `./node --test test/`).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, existsSync, symlinkSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteKV, StaleRead } from '../src/kv.mjs';
import { VectorIndex, compareKeys } from '../src/vectors.mjs';
import { casefold } from '../src/casefold.mjs';
import { HostServices } from '../src/host.mjs';
import { Guest, GuestTrap, Runtime } from '../src/component.mjs';
import { matches } from '../src/conformance.mjs';
import { FileDigests } from '../src/files.mjs';
import { floatsOf, pack, packHits, packPairs, unpack, unpackKeys, unpackPairs } from '../src/pack.mjs';

const f32 = (...xs) => new Uint8Array(new Float32Array(xs).buffer);

function scratch() {
  const dir = mkdtempSync(join(tmpdir(), 'rs-learn-node-test-'));
  return { dir, done: () => rmSync(dir, { recursive: true, force: true }) };
}

test('vector search: cosine, zero vectors score 0, non-finite values and other sizes are not candidates', () => {
  const { dir, done } = scratch();
  const kv = new SqliteKV(join(dir, 'a.db'));
  const index = new VectorIndex(kv);
  kv.put('v', 'b', f32(1, 0));
  kv.put('v', 'a', f32(2, 0));
  kv.put('v', 'c', f32(0, 1));
  kv.put('v', 'zero', f32(0, 0));
  kv.put('v', 'nan', f32(NaN, 1));
  kv.put('v', 'inf', f32(Infinity, 0));
  kv.put('v', 'three', f32(1, 0, 0));
  kv.put('v', 'text', new TextEncoder().encode('abcdefgh'.slice(0, 7)));
  const hits = index.search('v', [3, 0], 10);
  assert.deepEqual(hits.map((h) => h.key), ['a', 'b', 'c', 'zero']);
  assert.deepEqual(hits.map((h) => h.score), [1, 1, 0, 0]);
  assert.deepEqual(index.search('v', [NaN, 0], 10), []);
  assert.deepEqual(index.search('v', [1, 0], 0), []);
  kv.put('v', 'a', new Uint8Array());
  assert.deepEqual(index.search('v', [1, 0], 1).map((h) => h.key), ['b'], 'a put in the open transaction is seen');
  kv.rollback();
  assert.deepEqual(index.search('v', [1, 0], 1), [], 'the rollback dropped everything written');
  assert.equal(existsSync(join(dir, 'a.db')), true);
  kv.close();
  done();
});

test('keys tie-break in code point order (UTF-8 byte order), not UTF-16 order', () => {
  const keys = ['\u{1F600}', '\uFF61', 'b', 'a'];
  assert.deepEqual([...keys].sort(compareKeys), ['a', 'b', '\uFF61', '\u{1F600}']);
  assert.deepEqual([...keys].sort(), ['a', 'b', '\u{1F600}', '\uFF61'], 'plain JS order differs');
});

test('casefold is full case folding, as Python str.casefold', () => {
  assert.equal(casefold('Straße'), 'strasse');
  assert.equal(casefold('ΣΊΣΥΦΟΣ ς'), 'σίσυφοσ σ');
  assert.equal(casefold('ﬁle'), 'file');
  assert.equal(casefold('İstanbul'), 'i̇stanbul');
  assert.equal(casefold('ABC'), 'abc');
});

test('a read never creates the store; an unchanged put writes nothing', () => {
  const { dir, done } = scratch();
  const kv = new SqliteKV(join(dir, 'sub', 'b.db'));
  assert.equal(kv.get('ns', 'k'), null);
  assert.deepEqual(kv.query('ns', '', 0), []);
  assert.equal(existsSync(join(dir, 'sub')), false);
  assert.equal(kv.put('ns', 'k', new Uint8Array()), false, 'deleting from a missing store');
  assert.equal(kv.put('ns', 'k', f32(1)), true);
  kv.commit();
  assert.equal(kv.put('ns', 'k', f32(1)), false);
  assert.throws(() => kv.put('', 'k', f32(1)), /namespace must be a non-empty string/);
  assert.throws(() => kv.get('ns', 'a\0b'), /contains NUL/);
  kv.close();
  done();
});

test('the comparison rule of the kit', () => {
  assert.equal(matches({ a: [1, 'x', null] }, { a: [1, 'x', null] }), true);
  assert.equal(matches({ a: 1 }, { a: 1, b: 2 }), false);
  assert.equal(matches(0.25, 0.25000001), true);
  assert.equal(matches(0.25, 0.2501), false);
  assert.equal(matches(true, 1), false);
  assert.equal(matches({ $startswith: 'internal: ' }, 'internal: host failure'), true);
  assert.equal(matches([1, 2], [2, 1]), false);
});

test('a trap discards the instance and rolls the call back; the next call instantiates afresh', async () => {
  const { dir, done } = scratch();
  const services = new HostServices(dir, { clock: () => 1_700_000_000_000 });
  services.onLog = () => {};
  let trapOnPut = false;
  const imports = services.imports.bind(services);
  services.imports = () => {
    const table = imports();
    const put = table['host-kv-put'].default;
    table['host-kv-put'] = { default: (...args) => {
      if (trapOnPut) throw new Error('a host bug escaping an import'); // what the contract forbids
      return put(...args);
    } };
    return table;
  };
  const guest = new Guest(await Runtime.load(), services);
  assert.equal(await guest.version(), '0.2.0');
  trapOnPut = true;
  await assert.rejects(guest.memorize('This fact never lands.', 'default'), GuestTrap);
  assert.equal(guest.instance, null, 'the instance is discarded');
  assert.equal(existsSync(join(dir, '.gm', 'rs-learn.db-journal')), false);
  trapOnPut = false;
  assert.match(await guest.memorize('This fact lands.', 'default'), /^mem-[0-9a-f]{16}-16$/);
  assert.equal(guest.instantiations, 2);
  const hits = await guest.recall('fact', 5);
  assert.deepEqual(hits.map((h) => h.text), ['This fact lands.']);
  guest.close();
  services.close();
  done();
});

test('no re-entrancy: an import may not call back into the component', async () => {
  const { dir, done } = scratch();
  const services = new HostServices(dir, { clock: () => 1_700_000_000_000 });
  let guest;
  let reentry;
  const imports = services.imports.bind(services);
  services.imports = () => {
    const table = imports();
    const now = table['host-now-ms'].default;
    table['host-now-ms'] = { default: () => {
      reentry ??= guest.version();
      return now();
    } };
    return table;
  };
  guest = new Guest(await Runtime.load(), services);
  await guest.memorize('Re-entrancy is refused.', 'default');
  await assert.rejects(reentry, /re-entrant call of version/);
  guest.close();
  services.close();
  done();
});

test('an import failure fails the call and rolls it back; a contract error is the guest\'s to handle', async () => {
  const { dir, done } = scratch();
  const services = new HostServices(dir, { clock: () => 1_700_000_000_000 });
  const messages = [];
  services.onLog = () => {};
  const table = services.imports();
  assert.deepEqual(table['host-kv-put'].default('host', packPairs([['k', f32(1)]])), { tag: 'err', val: "namespace \"host\" is read-only (served by the host)" });
  assert.equal(services.failure(), null, 'a contract error is not a host failure');
  assert.equal(table['host-kv-get'].default('disciplines/../x', pack([Buffer.from('k')])), '-\n', 'absent, one per key');
  assert.match(services.failure(), /^internal: host failure: host-kv-get: StoreError/);
  messages.push(services.failure());
  services.rollback();
  done();
});

test('a store read as absent and created by another process before the first write: StaleRead', () => {
  const { dir, done } = scratch();
  const path = join(dir, '.gm', 'rs-learn.db');
  const late = new SqliteKV(path);
  const early = new SqliteKV(path);
  assert.equal(late.get('meta', 'stats'), null, 'read as absent: no file, no lock');
  early.put('meta', 'stats', new TextEncoder().encode('{"docs":1}'));
  early.commit();
  assert.throws(() => late.put('meta', 'stats', new TextEncoder().encode('{"docs":1}')), StaleRead);
  assert.equal(new TextDecoder().decode(late.get('meta', 'stats')), '{"docs":1}', 'read again inside a transaction');
  late.close();
  early.close();
  done();
});

test('two first writes to a new store get distinct documents: the stale call runs again', async () => {
  const { dir, done } = scratch();
  const clock = () => 1_700_000_000_000;
  const other = new Guest(await Runtime.load(), new HostServices(dir, { clock }));
  other.services.onLog = () => {};
  await other.version(); // instantiated
  const services = new HostServices(dir, { clock });
  services.onLog = () => {};
  let race = true;
  const imports = services.imports.bind(services);
  services.imports = () => {
    const table = imports();
    const put = table['host-kv-put'].default;
    table['host-kv-put'] = { default: (...args) => {
      if (race) { // another process's first write lands between this call's reads and its first put
        race = false;
        other.services.begin();
        other.instance.dispatch('memorize', JSON.stringify({ text: 'The other process wrote the first fact.' }));
        other.services.commit();
      }
      return put(...args);
    } };
    return table;
  };
  const guest = new Guest(await Runtime.load(), services);
  await guest.memorize('This call read an empty project, then found it written.', 'default');
  const kv = new SqliteKV(join(dir, '.gm', 'rs-learn.db'));
  const ids = kv.query('docs', '', 0).map((e) => new TextDecoder().decode(e.value)).sort();
  assert.deepEqual(ids, kv.query('memories', '', 0).map((e) => e.key).sort(), 'one document per memory');
  assert.equal(ids.length, 2);
  kv.close();
  guest.close();
  other.close();
  services.close();
  other.services.close();
  done();
});

test('file digests: project files only, never through a link, cached by file identity', () => {
  const { dir, done } = scratch();
  const root = join(dir, 'project');
  mkdirSync(join(root, 'src'), { recursive: true });
  writeFileSync(join(root, 'src', 'retry.py'), 'RETRIES = 3\n');
  writeFileSync(join(dir, 'outside.py'), 'secret');
  symlinkSync(join(dir, 'outside.py'), join(root, 'src', 'linked.py'));
  symlinkSync(dir, join(root, 'up'));
  const sha = (text) => ({ sha256: createHash('sha256').update(text).digest('hex') });
  const files = new FileDigests(root);
  assert.deepEqual(files.answer('src/retry.py'), sha('RETRIES = 3\n'));
  assert.deepEqual(files.answer('src/missing.py'), { exists: false });
  assert.deepEqual(files.answer('src'), { exists: false });
  assert.deepEqual(files.answer('src/retry.py/x'), { exists: false });
  for (const refused of ['src/linked.py', 'up/outside.py', '../outside.py', '/etc/passwd', 'src//x.py', './src']) {
    assert.equal(files.answer(refused), null, refused);
  }
  assert.equal(files.hashed, 1);
  files.answer('src/retry.py');
  assert.equal(files.hashed, 1, 'an unchanged file is not read again');
  writeFileSync(join(root, 'src', 'retry.py'), 'RETRIES = 5\n');
  assert.deepEqual(files.answer('src/retry.py'), sha('RETRIES = 5\n'));
  done();
});

test('packs: the format of wit/rs-learn.wit, round trips, malformed ones refused', () => {
  assert.equal(pack([]), '\n');
  assert.equal(pack([new Uint8Array(0)]), '0\n');
  assert.equal(pack([Buffer.from('abc'), null]), '3,-\nabc');
  assert.equal(pack([Uint8Array.of(0xe9)]), '1\n\u00e9');
  const all = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
  assert.deepEqual(unpack(pack([all, null, Buffer.from('\n,-')])), [all, null, Buffer.from('\n,-')]);
  assert.deepEqual(unpackKeys(pack([Buffer.from('ключ'), Buffer.from('🔑/x')])), ['ключ', '🔑/x']);
  assert.deepEqual(unpackPairs(packPairs([['é', Uint8Array.of(0, 255)]])), [['é', Buffer.from([0, 255])]]);
  assert.deepEqual(Array.from(floatsOf(Buffer.from(f32(1, -2.5)).toString('latin1'))), [1, -2.5]);
  const hits = unpackPairs(packHits([{ key: 'k', score: 0.25 }]));
  assert.deepEqual(hits.map(([key, score]) => [key, score.readFloatLE(0)]), [['k', 0.25]]);
  for (const bad of ['', 'abc', '3\nab', '1\nab', 'x\na', '\nzz', '1\n\u0100', '1,\na', '-1\n']) {
    assert.throws(() => unpack(bad), Error, JSON.stringify(bad));
  }
});
