// Unicode full case folding, as Python's `str.casefold` (the harness's `host-kv-query` rule).
// The table is generated from Python's Unicode database: scripts/gen_casefold_table.py.
import { readFileSync } from 'node:fs';

const { folds } = JSON.parse(readFileSync(new URL('./casefold-table.json', import.meta.url), 'utf-8'));
const FOLDS = new Map(Object.entries(folds).map(([cp, fold]) => [Number(cp), fold]));
const ASCII = /^[\x00-\x7f]*$/;

/** `s` case-folded code point by code point (ASCII takes the fast path: folding is lower-casing). */
export function casefold(s) {
  if (ASCII.test(s)) return s.toLowerCase();
  let out = '';
  for (const char of s) {
    const fold = FOLDS.get(char.codePointAt(0));
    out += fold === undefined ? char : fold;
  }
  return out;
}
