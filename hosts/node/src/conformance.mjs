// The conformance-kit runner of the Node host: replays conformance/traces/*.json (format:
// conformance/README.md) exactly as host_harness/conformance.py does for the Python harness.
import { mkdtempSync, mkdirSync, readFileSync, rmSync, unlinkSync, writeFileSync, existsSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { Guest } from './component.mjs';
import { HostServices } from './host.mjs';

export const FLOAT_TOLERANCE = 1e-6; // relative (absolute below 1): host cosines may differ in the last f32 bits
const FORMAT = 1;

/** The comparison rule of the kit: exact, except `{"$startswith": s}` and float tolerance. */
export function matches(expected, actual) {
  if (isObject(expected) && Object.keys(expected).length === 1 && '$startswith' in expected) {
    return typeof actual === 'string' && actual.startsWith(expected.$startswith);
  }
  if (typeof expected === 'number' && typeof actual === 'number') {
    const scale = Math.max(1, Math.abs(expected), Math.abs(actual));
    return expected === actual || Math.abs(expected - actual) <= FLOAT_TOLERANCE * scale;
  }
  if (Array.isArray(expected) || Array.isArray(actual)) {
    return Array.isArray(expected) && Array.isArray(actual) && expected.length === actual.length &&
      expected.every((value, i) => matches(value, actual[i]));
  }
  if (isObject(expected) && isObject(actual)) {
    const keys = Object.keys(expected);
    return keys.length === Object.keys(actual).length && keys.every((k) => k in actual && matches(expected[k], actual[k]));
  }
  return expected === actual;
}

function isObject(value) {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

export function decodeValue(spec) {
  if ('utf8' in spec) return new TextEncoder().encode(spec.utf8);
  if ('json' in spec) return new TextEncoder().encode(JSON.stringify(spec.json));
  if ('base64' in spec) return new Uint8Array(Buffer.from(spec.base64, 'base64'));
  if ('f32' in spec) return new Uint8Array(new Float32Array(spec.f32).buffer); // little-endian hosts only
  throw new Error(`a store value needs utf8, json, base64 or f32: ${JSON.stringify(spec)}`);
}

/** Host services with the trace's one injected behaviour: a failing host-kv-put. */
class TraceServices extends HostServices {
  constructor(root, options) {
    super(root, options);
    this.failPutAfter = null;
  }

  kvPut(ns, key, value) {
    if (this.failPutAfter !== null) {
      if (this.failPutAfter === 0) {
        this.failPutAfter = null;
        throw new Error('injected storage failure');
      }
      this.failPutAfter -= 1;
    }
    super.kvPut(ns, key, value);
  }
}

function writeFiles(root, files) {
  for (const [rel, content] of Object.entries(files)) {
    const path = join(root, rel);
    if (content === null) {
      if (existsSync(path)) unlinkSync(path);
    } else {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, content, 'utf-8');
    }
  }
}

async function callStep(guest, step) {
  if (step.call === 'dispatch') {
    const body = 'body' in step ? step.body : JSON.stringify(step.json);
    return JSON.parse(await guest.dispatch(step.verb, body));
  }
  try {
    if (step.call === 'version') return { ok: await guest.version() };
    if (step.call === 'memorize') return { ok: await guest.memorize(step.text, step.namespace ?? 'default') };
    if (step.call === 'recall') return { ok: await guest.recall(step.query, step.limit ?? 0) };
  } catch (error) {
    if (error.constructor.name === 'GuestTrap') throw error;
    return { err: error.message };
  }
  throw new Error(`unknown call ${step.call}`);
}

/** Replay one trace in a fresh project under `workdir`; return the mismatches. */
export async function runTrace(trace, runtime, workdir) {
  if (trace.format !== FORMAT) return [`unsupported trace format ${trace.format}`];
  const setup = trace.host ?? {};
  const root = join(workdir, 'project');
  mkdirSync(root, { recursive: true });
  writeFiles(root, setup.files ?? {});
  let now = Number(setup.now_ms ?? 1_700_000_000_000);
  const services = new TraceServices(root, { scope: setup.scope ?? null, clock: () => now });
  services.onLog = () => {};
  for (const entry of setup.store ?? []) {
    services.begin();
    services.kvPut(entry.ns, entry.key, decodeValue(entry));
    services.commit();
  }
  const guest = new Guest(runtime, services);
  const problems = [];
  const utf8 = new TextDecoder();
  try {
    let number = 0;
    for (const step of trace.steps) {
      number += 1;
      let actual;
      if ('call' in step) {
        actual = await callStep(guest, step);
        services.failPutAfter = null;
      } else if ('clock' in step) {
        now = 'set' in step.clock ? step.clock.set : now + step.clock.advance;
        continue;
      } else if ('fault' in step) {
        if (step.fault.import !== 'host-kv-put') throw new Error(`unsupported fault ${JSON.stringify(step.fault)}`);
        services.failPutAfter = step.fault.after;
        continue;
      } else if ('files' in step) {
        writeFiles(root, step.files);
        continue;
      } else if ('keys' in step) {
        services.begin();
        actual = services.kvQuery(step.keys, '', 0).map((e) => e.key);
        services.rollback();
      } else if ('value' in step) {
        services.begin();
        const raw = services.kvGet(step.value.ns, step.value.key);
        services.rollback();
        actual = raw === null ? null : step.value.as === 'utf8' ? utf8.decode(raw) : JSON.parse(utf8.decode(raw));
      } else if ('exists' in step) {
        actual = Object.fromEntries(step.exists.map((rel) => [rel, existsSync(join(root, rel)) && statSync(join(root, rel)).isFile()]));
      } else if ('read' in step) {
        const path = join(root, step.read);
        actual = existsSync(path) ? readFileSync(path, 'utf-8') : null;
      } else {
        throw new Error(`unknown step ${JSON.stringify(step)}`);
      }
      if (!('expect' in step)) problems.push(`step ${number}: no expectation`);
      else if (!matches(step.expect, actual)) {
        const label = describe(step);
        problems.push(`step ${number} (${label}): expected ${JSON.stringify(step.expect).slice(0, 2000)}\n  got ${JSON.stringify(actual).slice(0, 2000)}`);
      }
    }
  } finally {
    guest.close();
    services.close();
  }
  return problems;
}

/** A short label of a step for messages (the same as host_harness/conformance.py's). */
function describe(step) {
  if (step.call === 'dispatch') return `dispatch ${step.verb}`;
  if ('value' in step) return `value ${step.value.ns}/${step.value.key}`;
  if ('keys' in step) return `keys ${step.keys}`;
  return step.call ?? Object.keys(step)[0];
}

/** Replay trace files; print one line per trace (and its mismatches); return the number that failed. */
export async function runTraces(runtime, paths, print) {
  let failed = 0;
  for (const path of paths) {
    const trace = JSON.parse(readFileSync(path, 'utf-8'));
    const workdir = mkdtempSync(join(tmpdir(), 'rs-learn-trace-'));
    let problems;
    try {
      problems = await runTrace(trace, runtime, workdir);
    } finally {
      rmSync(workdir, { recursive: true, force: true });
    }
    print(`${problems.length ? 'FAIL' : 'ok'} ${basename(path)} (${trace.steps.length} steps)`);
    for (const problem of problems) print(`  ${problem}`);
    if (problems.length) failed += 1;
  }
  return failed;
}
