// The component behind the host's export-call rules (docs/host-contract.md):
//
// * one transaction per export call: commit when it succeeded (`version`, `memorize`/`recall`
//   returned ok, a `dispatch` envelope with "ok": true), roll back otherwise;
// * a host import that failed during the call fails the call (rolled back, an error);
// * anything thrown out of an export other than a typed `err` is a trap: roll back and DISCARD the
//   instance (jco keeps an instance usable after some traps; the contract says never reuse one);
//   the next call instantiates afresh from the compiled modules, which are kept;
// * no re-entrancy: an export may not be called while another one runs on the same instance.
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { HostFailure } from './host.mjs';

export const DEFAULT_BINDINGS = resolve(new URL('..', import.meta.url).pathname, 'build');

export class GuestError extends Error {}
export class GuestTrap extends GuestError {}

/** The transpiled component (jco `--instantiation async`), its core modules compiled once. */
export class Runtime {
  static async load(dir = DEFAULT_BINDINGS) {
    const runtime = new Runtime();
    runtime.dir = dir;
    runtime.module = await import(pathToFileURL(join(dir, 'rs_learn.js')).href);
    runtime.compiled = new Map();
    return runtime;
  }

  coreModule(name) {
    let module = this.compiled.get(name);
    if (module === undefined) {
      module = readFile(join(this.dir, name)).then((bytes) => WebAssembly.compile(bytes));
      this.compiled.set(name, module);
    }
    return module;
  }

  instantiate(imports) {
    return this.module.instantiate((name) => this.coreModule(name), imports);
  }
}

function envelopeOk(envelope) {
  try {
    const value = JSON.parse(envelope);
    return value !== null && typeof value === 'object' && value.ok === true;
  } catch {
    return false;
  }
}

export class Guest {
  constructor(runtime, services) {
    this.runtime = runtime;
    this.services = services;
    this.instance = null;
    this.instantiations = 0;
    this.busy = false;
  }

  async ready() {
    if (this.instance === null) {
      try {
        this.instance = await this.runtime.instantiate(this.services.imports());
      } catch (error) {
        throw new GuestError(`cannot instantiate the component: ${error.message}`);
      }
      this.instantiations += 1;
    }
    return this.instance;
  }

  async version() {
    return this.transact('version', [], () => true);
  }

  async memorize(text, namespace = 'default') {
    requireUnicode({ text, namespace });
    return this.transact('memorize', [text, namespace], () => true);
  }

  async recall(query, limit = 0) {
    requireUnicode({ query });
    return this.transact('recall', [query, limit], () => true);
  }

  async dispatch(verb, body) {
    try {
      requireUnicode({ verb, body });
    } catch (error) {
      return JSON.stringify({ ok: false, verb: verb.toWellFormed(), error: error.message });
    }
    let envelope;
    try {
      envelope = await this.transact('dispatch', [verb, body], envelopeOk);
    } catch (error) {
      if (error instanceof HostFailure) return JSON.stringify({ ok: false, verb, error: error.message });
      throw error;
    }
    return this.services.project.applyEffects(envelope);
  }

  async transact(name, args, succeeded) {
    try {
      return await this.attempt(name, args, succeeded);
    } catch (error) {
      // A store the call read as absent was created by another process before the call wrote it:
      // what it read is stale. It was rolled back; run it once more (the store exists now).
      if (!(error instanceof HostFailure) || !this.services.staleRead) throw error;
      return await this.attempt(name, args, succeeded);
    }
  }

  async attempt(name, args, succeeded) {
    if (this.busy) throw new GuestError(`re-entrant call of ${name}: one export call at a time`);
    const instance = await this.ready();
    const services = this.services;
    this.busy = true;
    services.begin();
    let result;
    try {
      result = instance[name](...args);
    } catch (error) {
      const failure = services.failure();
      services.rollback();
      if (typeof error === 'string') {
        // a typed `err` result; it may stem from a failed import: say so
        if (failure !== null) throw new HostFailure(failure);
        throw new GuestError(error);
      }
      this.instance = null; // a trap: never reuse the instance
      throw new GuestTrap(`internal: the component trapped in ${name}: ${error?.message ?? error}`);
    } finally {
      this.busy = false;
    }
    const failure = services.failure();
    if (failure !== null) {
      services.rollback();
      throw new HostFailure(failure);
    }
    if (succeeded(result)) services.commit();
    else services.rollback();
    return result;
  }

  close() {
    this.instance = null;
  }
}

function requireUnicode(strings) {
  for (const [name, value] of Object.entries(strings)) {
    if (typeof value !== 'string' || !value.isWellFormed()) {
      throw new GuestError(`validation: ${name} is not valid Unicode (lone surrogate)`);
    }
  }
}
