// Timings of the Node host for `make bench` (bench/hosts.py): node src/bench.mjs PROJECT QUERIES.json
// Prints one JSON object: start-up (load the bindings, compile + instantiate, first recall,
// re-instantiate with the compiled modules kept) and the warm recall latencies in ms.
import { readFileSync } from 'node:fs';
import { Guest, Runtime } from './component.mjs';
import { HostServices } from './host.mjs';

const [project, queriesFile] = process.argv.slice(2);
const queries = JSON.parse(readFileSync(queriesFile, 'utf-8'));
const started = performance.now();
const since = (t) => performance.now() - t;

const runtime = await Runtime.load();
const loadMs = since(started);
const services = new HostServices(project);
services.onLog = () => {};
const guest = new Guest(runtime, services);
let t = performance.now();
await guest.ready();
const instantiateMs = since(t);
const recall = async (query) => {
  const envelope = JSON.parse(await guest.dispatch('recall', JSON.stringify({ query })));
  if (!envelope.ok) throw new Error(envelope.error);
};
t = performance.now();
await recall('warm up the index');
const firstRecallMs = since(t);
const processToFirstRecallMs = since(started);
guest.close();
t = performance.now();
await guest.ready();
const reinstantiateMs = since(t);
await recall('warm up the index');
const samples = [];
for (const query of queries) {
  t = performance.now();
  await recall(query);
  samples.push(since(t));
}
guest.close();
services.close();
process.stdout.write(JSON.stringify({ loadMs, instantiateMs, firstRecallMs, processToFirstRecallMs, reinstantiateMs, samples }) + '\n');
