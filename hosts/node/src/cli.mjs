// rs-learn-node: the Node reference host's command line.
//
//   rs-learn-node [-p DIR] memorize TEXT [--namespace NS] [--json]
//   rs-learn-node [-p DIR] recall QUERY [--limit N] [--json]
//   rs-learn-node [-p DIR] dispatch VERB BODY        (BODY `-` reads stdin; prints the envelope)
//   rs-learn-node conformance TRACE.json...          (replays conformance traces; exit 1 on a mismatch)
//
// Each command is one process; memorize and recall go through `dispatch`, like rs-learn-host.
// Needs Node >= 22.13: the component uses the extended-const proposal (Node >= 22) and the store
// uses node:sqlite (unflagged from 22.13).
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 13)) {
  process.stderr.write(
    `rs-learn-node: Node ${process.versions.node} is too old: Node >= 22.13 is required ` +
      '(WebAssembly extended-const for the component, node:sqlite for the store); `make node` provisions one\n',
  );
  process.exit(2);
}

const { parseArgs } = await import('node:util');
const { readFileSync } = await import('node:fs');
const { resolve } = await import('node:path');

const USAGE = `usage: rs-learn-node [-p DIR] memorize TEXT [--namespace NS] [--json]
       rs-learn-node [-p DIR] recall QUERY [--limit N] [--json]
       rs-learn-node [-p DIR] dispatch VERB BODY
       rs-learn-node conformance TRACE.json...
options: -p/--project DIR (default $RS_LEARN_PROJECT or .), --bindings DIR (the transpiled component,
         default $RS_LEARN_NODE_BINDINGS or hosts/node/build), --scope JSON (trusted scope for
         structured memory)`;

function fail(message, status = 1) {
  process.stderr.write(`rs-learn-node: ${message}\n`);
  process.exit(status);
}

let parsed;
try {
  parsed = parseArgs({
    allowPositionals: true,
    options: {
      project: { type: 'string', short: 'p' },
      bindings: { type: 'string' },
      scope: { type: 'string' },
      namespace: { type: 'string', short: 'n' },
      limit: { type: 'string', short: 'l', default: '8' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
} catch (error) {
  fail(`${error.message}\n${USAGE}`, 2);
}
const { values: opts, positionals } = parsed;
const [command, ...args] = positionals;
if (opts.help || command === undefined) {
  process.stdout.write(USAGE + '\n');
  process.exit(opts.help ? 0 : 2);
}

const { Runtime, Guest, GuestError } = await import('./component.mjs');
const { HostServices } = await import('./host.mjs');
const { ConfigError } = await import('./project.mjs');
const bindings = resolve(opts.bindings ?? process.env.RS_LEARN_NODE_BINDINGS ?? new URL('../build', import.meta.url).pathname);

if (command === 'conformance') {
  const { runTraces } = await import('./conformance.mjs');
  const runtime = await Runtime.load(bindings);
  const failed = await runTraces(runtime, args, (line) => process.stdout.write(line + '\n'));
  process.exit(failed ? 1 : 0);
}

const root = resolve(opts.project ?? process.env.RS_LEARN_PROJECT ?? '.');
let scope = null;
if (opts.scope !== undefined) {
  try {
    scope = JSON.parse(opts.scope);
  } catch (error) {
    fail(`--scope must be a JSON object: ${error.message}`, 2);
  }
}
let services;
try {
  services = new HostServices(root, { scope });
} catch (error) {
  if (error instanceof ConfigError) fail(`invalid configuration: ${error.message}`);
  throw error;
}
const guest = new Guest(await Runtime.load(bindings), services);
const print = (value) => process.stdout.write(JSON.stringify(value, null, 2) + '\n');

async function data(verb, body) {
  const envelope = JSON.parse(await guest.dispatch(verb, JSON.stringify(body)));
  if (!envelope.ok) fail(`Error: ${envelope.error}`);
  return envelope.data;
}

try {
  if (command === 'memorize' && args.length === 1) {
    const text = args[0] === '-' ? readFileSync(0, 'utf-8') : args[0];
    // without --namespace a leading @name sigil chooses the store; typed at a command line: the user's
    const origin = { kind: 'typed', by: 'user' };
    const body = opts.namespace === undefined ? { text, origin } : { text, namespace: opts.namespace, origin };
    const result = await data('memorize', body);
    if (opts.json) print(result);
    else process.stdout.write(result.deduped ? `${result.id} (already stored)\n` : `${result.id}\n`);
  } else if (command === 'recall' && args.length === 1) {
    const limit = Number(opts.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) fail(`--limit must be an integer from 1 to 100, got ${opts.limit}`, 2);
    const hits = await data('recall', { query: args[0], limit });
    if (opts.json) print(hits);
    else if (hits.length === 0) process.stdout.write('No memories found.\n');
    else {
      hits.forEach((hit, i) => {
        const where = hit.namespace === 'default' ? '' : ` [${hit.namespace}]`;
        process.stdout.write(`${i + 1}. (${hit.score.toFixed(3)}) ${hit.text}${where}  ${hit.id}\n`);
      });
    }
  } else if (command === 'dispatch' && args.length === 2) {
    const body = args[1] === '-' ? readFileSync(0, 'utf-8') : args[1];
    const envelope = await guest.dispatch(args[0], body);
    process.stdout.write(envelope + '\n');
    if (!JSON.parse(envelope).ok) process.exitCode = 1;
  } else {
    fail(USAGE, 2);
  }
} catch (error) {
  if (error instanceof GuestError) fail(error.message);
  throw error;
} finally {
  guest.close();
  services.close();
}
