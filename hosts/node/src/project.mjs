// A project's paths, namespace routing and the reserved read-only `host` namespace
// (docs/host-contract.md, "Namespaces and routing"), plus the one file effect (managed skills).
import {
  closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, readSync, readdirSync, renameSync, rmSync, statSync, writeSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { StoreError, checkName } from './kv.mjs';
import { FILE_PREFIX, FileDigests } from './files.mjs';

export const NAME_RE = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
const RESERVED_DISCIPLINES = new Set(['host']); // a discipline named like the host namespace

/** Whether `name` may name a discipline: a safe name that is not reserved (`host`). */
export function validDiscipline(name) {
  return NAME_RE.test(name) && !RESERVED_DISCIPLINES.has(name);
}
export const DB_NAME = 'rs-learn.db';
const HOST_KEYS = [
  'authored-skills', 'disciplines', 'enabled-disciplines', 'managed-skills', 'memory-config', 'redact', 'scope',
  'skills',
];
const MAX_SKILLS = 500;
const MAX_HEAD_BYTES = 16 * 1024;
const SKILL_PATH = /^managed-skills\/([a-z0-9][a-z0-9-]{0,63})\/SKILL\.md$/;

export class Project {
  constructor(root, { scope = null, memoryConfig = defaultMemoryConfig(), redact = true } = {}) {
    this.root = root;
    this.gm = join(root, '.gm');
    this.dbPath = join(this.gm, DB_NAME);
    this.scope = scope;
    this.memoryConfig = memoryConfig;
    this.redact = redact;
    this.routes = new Map();
    this.files = new FileDigests(root); // `file/<path>` digests (not listed by hostEntries)
  }

  disciplineDb(name) {
    if (!validDiscipline(name)) {
      throw new StoreError(
        `discipline name ${JSON.stringify(name)} is not valid: use letters, digits, '_' and '-', ` +
          "starting with a letter or digit, at most 64 characters (no '/', '..', NUL), not 'host'",
      );
    }
    return join(this.gm, 'disciplines', name, DB_NAME);
  }

  /** `.gm/disciplines/enabled.txt`: trimmed names, blank and `#` lines skipped, de-duplicated, valid and not `host`. */
  enabledDisciplines() {
    let text;
    try {
      text = readFileSync(join(this.gm, 'disciplines', 'enabled.txt'), 'utf-8').replace(/^\uFEFF/, '');
    } catch {
      return [];
    }
    const names = [];
    for (const line of text.split(/\r\n|\r|\n/)) {
      const name = line.trim();
      if (name && !name.startsWith('#') && !names.includes(name) && validDiscipline(name)) names.push(name);
    }
    return names;
  }

  /** The discipline folders under `.gm/disciplines/` (valid names, never `default` or `host`), sorted. */
  disciplineDirs() {
    const base = join(this.gm, 'disciplines');
    let names;
    try {
      names = readdirSync(base, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);
    } catch {
      return [];
    }
    return names.filter((name) => validDiscipline(name) && name !== 'default').sort();
  }

  /** The disciplines a leading `@name` selects: every folder and every enabled name, sorted. */
  knownDisciplines() {
    return [...new Set([...this.disciplineDirs(), ...this.enabledDisciplines()])].sort();
  }

  /** Every skill folder with a SKILL.md: `{name, kind, path, description}`, managed first, by name. */
  skills() {
    const found = [];
    const places = [
      ['managed', join(this.gm, 'managed-skills'), '.gm/managed-skills'],
      ['authored', join(this.gm, 'skills'), '.gm/skills'],
      ['authored', join(this.root, '.claude', 'skills'), '.claude/skills'],
    ];
    for (const [kind, base, rel] of places) {
      for (const name of skillDirs(base)) {
        const path = `${rel}/${name}/SKILL.md`;
        if (kind === 'managed' && !SKILL_PATH.test(path.slice('.gm/'.length))) continue;
        found.push({ name, kind, path, description: skillDescription(join(base, name, 'SKILL.md')) });
        if (found.length === MAX_SKILLS) return found;
      }
    }
    return found;
  }

  managedSkills() {
    return skillDirs(join(this.gm, 'managed-skills')).filter((name) => NAME_RE.test(name));
  }

  authoredSkills() {
    const names = new Set([...skillDirs(join(this.gm, 'skills')), ...skillDirs(join(this.root, '.claude', 'skills'))]);
    return [...names].sort();
  }

  static isReserved(ns) {
    return ns === 'host' || ns.startsWith('host/');
  }

  /** `{db, ns}`: the database file of a namespace and the namespace inside it. */
  route(ns) {
    let route = this.routes.get(ns);
    if (route === undefined) {
      checkName(ns, 'namespace');
      if (Project.isReserved(ns)) throw new StoreError(`namespace ${JSON.stringify(ns)} is read-only (served by the host)`);
      if (ns === 'disciplines' || ns.startsWith('disciplines/')) {
        const parts = ns.split('/');
        const bucket = parts.slice(2).join('/');
        if (parts.length < 3 || !bucket) {
          throw new StoreError(`namespace ${JSON.stringify(ns)} must have the form disciplines/<name>/<bucket>`);
        }
        route = { db: this.disciplineDb(parts[1]), ns: bucket };
      } else {
        route = { db: this.dbPath, ns };
      }
      this.routes.set(ns, route);
    }
    return route;
  }

  /** A fact of the reserved namespace as compact UTF-8 JSON with sorted keys, or null. */
  hostValue(ns, key) {
    if (ns !== 'host') return null;
    let value;
    if (key === 'enabled-disciplines') value = this.enabledDisciplines();
    else if (key === 'disciplines') value = this.knownDisciplines();
    else if (key === 'skills') value = this.skills();
    else if (key === 'authored-skills') value = this.authoredSkills();
    else if (key === 'managed-skills') value = this.managedSkills();
    else if (key === 'scope' && this.scope !== null) value = this.scope;
    else if (key === 'memory-config') value = this.memoryConfig;
    else if (key === 'redact') value = this.redact;
    else if (key.startsWith(FILE_PREFIX)) {
      value = this.files.answer(key.slice(FILE_PREFIX.length));
      if (value === null) return null;
    } else return null;
    return new TextEncoder().encode(canonicalJson(value));
  }

  hostEntries(ns) {
    return HOST_KEYS.map((key) => ({ key, value: this.hostValue(ns, key) })).filter((e) => e.value !== null);
  }

  /** Perform the write an ok `learn` envelope asks for (after the commit); return the envelope to pass on. */
  applyEffects(envelope) {
    if (!envelope.includes('"write"')) return envelope;
    const value = JSON.parse(envelope);
    const data = value.data;
    if (value.ok !== true || data === null || typeof data !== 'object' || !('write' in data)) return envelope;
    const write = data.write;
    delete data.write;
    try {
      const path = write !== null && typeof write === 'object' ? write.path : undefined;
      if (typeof path !== 'string' || !SKILL_PATH.test(path)) {
        throw new Error(`refusing to write ${JSON.stringify(path)}: only managed-skills/<name>/SKILL.md`);
      }
      writeAtomic(join(this.gm, path), String(write.content));
    } catch (error) {
      const prefix = write !== null && typeof write === 'object' && 'failure_prefix' in write ? String(write.failure_prefix) : 'Done';
      data.text = `${prefix}, but the managed skill could not be written: ${error.message}`;
      if (Array.isArray(data.content) && data.content.length > 0) data.content[0].text = data.text;
      data.isError = true;
      data.details = { skill: null };
    }
    return JSON.stringify(value);
  }
}

function skillDirs(base) {
  try {
    return readdirSync(base)
      .filter((name) => existsSync(join(base, name, 'SKILL.md')) && statSync(join(base, name, 'SKILL.md')).isFile())
      .sort();
  } catch {
    return [];
  }
}

/** The `description` of a SKILL.md's front matter (the `---` block at the top), or null. */
function skillDescription(file) {
  let head;
  try {
    const fd = openSync(file, 'r');
    try {
      const buffer = Buffer.alloc(MAX_HEAD_BYTES);
      head = new TextDecoder().decode(buffer.subarray(0, readSync(fd, buffer, 0, MAX_HEAD_BYTES, 0)));
    } finally {
      closeSync(fd);
    }
  } catch {
    return null;
  }
  const lines = head.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
  if (lines.length === 0 || lines[0].trim() !== '---') return null;
  for (let n = 1; n < lines.length; n++) {
    if (lines[n].trim() === '---') return null;
    if (lines[n].startsWith('description:')) return yamlScalar(lines[n].slice('description:'.length).trim(), lines.slice(n + 1));
  }
  return null;
}

/** A YAML scalar as the Python host reads it: "json-like", 'single', a folded/literal block, plain. */
function yamlScalar(value, following) {
  if (value.startsWith('"')) {
    try {
      const decoded = JSON.parse(value);
      return typeof decoded === 'string' ? decoded : null;
    } catch {
      return value.replace(/^"+|"+$/g, '');
    }
  }
  if (value.startsWith("'")) {
    return value.endsWith("'") && value.length > 1 ? value.slice(1, -1).replaceAll("''", "'") : value.slice(1);
  }
  if (value.startsWith('>') || value.startsWith('|')) {
    const block = [];
    for (const line of following) {
      if (line && !/^\s/.test(line)) break;
      block.push(line.trim());
    }
    return block.filter((part) => part).join(' ') || null;
  }
  return value || null;
}

/** Python's `json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))`. */
export function canonicalJson(value) {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** Replace `path` atomically and durably: temp file beside it, fsync, rename. */
export function writeAtomic(path, text) {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = join(dirname(path), `.${path.split('/').pop()}.tmp.${process.pid}`);
  try {
    const fd = openSync(tmp, 'w', 0o644);
    try {
      writeSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, path);
  } catch (error) {
    rmSync(tmp, { force: true });
    throw error;
  }
}

// The structured-memory configuration: the `memory` block of `.gm/config.json` over the defaults,
// then `RS_LEARN_MEMORY_<FIELD>` (the environment wins). Invalid settings stop the host at start.
const DEFAULTS = {
  enabled: true, backend: 'sqlite', defaultLimit: 10, maxContextTokens: 1500,
  enableSemanticNotes: true, retentionDays: 30, archiveDeleteDays: 365, maxChecklistDepth: 5,
};
const RANGES = {
  defaultLimit: [1, 100], maxContextTokens: [1, 1_000_000], retentionDays: [0, 36_500],
  archiveDeleteDays: [0, 36_500], maxChecklistDepth: [1, 64],
};

export function defaultMemoryConfig() {
  return { ...DEFAULTS };
}

export class ConfigError extends Error {}

function envName(field) {
  return 'RS_LEARN_MEMORY_' + field.replace(/(?<!^)(?=[A-Z])/g, '_').toUpperCase();
}

function checkSetting(field, value, where) {
  const kind = typeof DEFAULTS[field];
  if (kind === 'boolean' && typeof value !== 'boolean') throw new ConfigError(`${where} must be true or false, got ${JSON.stringify(value)}`);
  if (kind === 'number') {
    if (!Number.isInteger(value)) throw new ConfigError(`${where} must be an integer, got ${JSON.stringify(value)}`);
    const [low, high] = RANGES[field];
    if (value < low || value > high) throw new ConfigError(`${where} must be between ${low} and ${high}, got ${value}`);
  }
  if (kind === 'string' && value !== 'sqlite') throw new ConfigError(`${where} must be one of sqlite, got ${JSON.stringify(value)}`);
  return value;
}

function readConfig(root) {
  const path = join(root, '.gm', 'config.json');
  if (!existsSync(path)) return null;
  let document;
  try {
    document = JSON.parse(readFileSync(path, 'utf-8').replace(/^\uFEFF/, ''));
  } catch (error) {
    throw new ConfigError(`${path}: not valid JSON: ${error.message}`);
  }
  if (document === null || typeof document !== 'object' || Array.isArray(document)) throw new ConfigError(`${path}: must hold a JSON object`);
  return document;
}

// The top-level `redact` of `.gm/config.json` (served as `host/redact`): true unless set to false.
export function loadRedact(root) {
  const value = readConfig(root)?.redact ?? true;
  if (typeof value !== 'boolean') throw new ConfigError(`${join(root, '.gm', 'config.json')}: redact must be true or false, got ${JSON.stringify(value)}`);
  return value;
}

export function loadMemoryConfig(root, environ = process.env) {
  const config = defaultMemoryConfig();
  const path = join(root, '.gm', 'config.json');
  let block = {};
  const document = readConfig(root);
  if (document !== null) {
    block = document.memory ?? {};
    if (block === null || typeof block !== 'object' || Array.isArray(block)) throw new ConfigError(`${path}: memory must be an object, got ${JSON.stringify(block)}`);
  }
  for (const [field, value] of Object.entries(block)) {
    if (!(field in DEFAULTS)) throw new ConfigError(`${path}: unknown field memory.${field} (known: ${Object.keys(DEFAULTS).join(', ')})`);
    config[field] = checkSetting(field, value, `${path}: memory.${field}`);
  }
  const vars = Object.fromEntries(Object.keys(DEFAULTS).map((field) => [envName(field), field]));
  for (const variable of Object.keys(environ).sort()) {
    if (!variable.startsWith('RS_LEARN_MEMORY_')) continue;
    const field = vars[variable];
    if (field === undefined) throw new ConfigError(`unknown environment variable ${variable} (known: ${Object.keys(vars).join(', ')})`);
    const raw = environ[variable].trim();
    let value = raw;
    if (typeof DEFAULTS[field] === 'boolean') {
      const lower = raw.toLowerCase();
      if (['1', 'true', 'yes', 'on'].includes(lower)) value = true;
      else if (['0', 'false', 'no', 'off'].includes(lower)) value = false;
      else throw new ConfigError(`${variable} must be a boolean (true/false, 1/0, yes/no, on/off), got ${JSON.stringify(environ[variable])}`);
    } else if (typeof DEFAULTS[field] === 'number') {
      if (!/^[+-]?[0-9]+$/.test(raw)) throw new ConfigError(`${variable} must be an integer, got ${JSON.stringify(environ[variable])}`);
      value = Number(raw);
    }
    config[field] = checkSetting(field, value, variable);
  }
  return config;
}
