// The import rules of web/src (docs/architecture.md, CONTRIBUTING.md "House rules"):
// - the folders point down: `logic/` (pure functions) imports only `logic/`; `net/` imports
//   `net/` and `logic/`; `ui/` any of the three; main.ts anything;
// - no circle: no module reaches itself through its imports (type-only imports included: a
//   circle of types is still two modules that cannot be read one without the other).
// Imports are read with the TypeScript compiler's own pre-processor (static, type-only, dynamic).
//   node scripts/check-imports.mjs [dir]     (exit 1 and one line per breach when any)

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const web = fileURLToPath(new URL('..', import.meta.url));
const root = process.argv[2] ?? join(web, 'src');

/** What each folder may import, by the folder of the importing file ('' is src/ itself). */
const ALLOWED = {
  logic: ['logic'],
  net: ['net', 'logic'],
  ui: ['ui', 'logic', 'net'],
  '': ['', 'ui', 'logic', 'net'],
};

function* tsFiles(dir) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) yield* tsFiles(p);
    else if (name.endsWith('.ts')) yield p;
  }
}

const folderOf = (rel) => (rel.includes(sep) ? rel.split(sep)[0] : '');

/** The modules of `files` ({path relative to the root: text}) and what each imports of them. */
export function importGraph(files) {
  const graph = {};
  for (const [path, text] of Object.entries(files)) {
    const found = ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName);
    graph[path] = found
      .filter((name) => name.startsWith('.') && name.endsWith('.ts'))
      .map((name) => normalize(join(dirname(path), name)));
  }
  return graph;
}

/** Every breach of the two rules, as readable lines. */
export function breaches(files) {
  const graph = importGraph(files);
  const out = [];
  for (const [path, targets] of Object.entries(graph)) {
    const allowed = ALLOWED[folderOf(path)] ?? [];
    for (const target of targets)
      if (!allowed.includes(folderOf(target)))
        out.push(
          `${path}: imports ${target} (${folderOf(path)}/ may not import ${folderOf(target)}/)`,
        );
  }
  // A depth-first walk: a module met again while still on the path closes a circle.
  const state = {};
  const path = [];
  const visit = (m) => {
    state[m] = 'open';
    path.push(m);
    for (const next of graph[m] ?? []) {
      if (state[next] === 'open')
        out.push(`import circle: ${[...path.slice(path.indexOf(next)), next].join(' -> ')}`);
      else if (!state[next] && graph[next]) visit(next);
    }
    path.pop();
    state[m] = 'done';
  };
  for (const m of Object.keys(graph).sort()) if (!state[m]) visit(m);
  return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const files = {};
  for (const file of tsFiles(root)) files[relative(root, file)] = readFileSync(file, 'utf8');
  const found = breaches(files);
  for (const line of found) console.error(line);
  if (found.length) {
    console.error(
      `check-imports: ${found.length} breach(es) of the import rules in ${relative(web, root) || root}`,
    );
    process.exit(1);
  }
  console.log('check-imports: logic/ <- net/ <- ui/, and no import circle');
}
