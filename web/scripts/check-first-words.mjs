// The English words bundled with the first screen (src/logic/lang/en_first.ts) must cover every
// key the entry script's code can show: the other English parts come later, with the other
// screens (logic/i18n.ts, wordsReady), so a key of theirs used by the shell or the lobby would
// show as its key. The entry script is src/main.ts and what it imports statically (dynamic
// imports are other chunks; type-only imports vanish). In those modules, every string literal
// that is an English key must be a first-screen key, and every template literal that makes a
// key (`error.${code}`) must only make first-screen keys.
//   node scripts/check-first-words.mjs     (exit 1 and one line per key when any)

import { readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const web = fileURLToPath(new URL('..', import.meta.url));
const src = join(web, 'src');
const parse = (path, text) => ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);

/** The modules a file imports at run time and statically (no `import type`, no `import()`). */
function staticImports(path, text) {
  const out = [];
  for (const node of parse(path, text).statements) {
    const isImport = ts.isImportDeclaration(node) && !node.importClause?.isTypeOnly;
    const isExport = ts.isExportDeclaration(node) && !node.isTypeOnly && node.moduleSpecifier;
    if (!isImport && !isExport) continue;
    const name = node.moduleSpecifier.text;
    if (name.startsWith('.') && name.endsWith('.ts'))
      out.push(normalize(join(dirname(path), name)));
  }
  return out;
}

/** The entry script's modules (paths relative to src/), `read` giving a module's text. */
export function entryModules(read, entry = 'main.ts') {
  const seen = new Set();
  const visit = (m) => {
    if (seen.has(m)) return;
    seen.add(m);
    for (const next of staticImports(m, read(m))) visit(next);
  };
  visit(entry);
  return seen;
}

/** The string literals of a module, and the fixed heads of its template literals. */
function literals(path, text) {
  const strings = [];
  const heads = [];
  const visit = (n) => {
    if (ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n)) strings.push(n.text);
    else if (ts.isTemplateExpression(n)) heads.push(n.head.text);
    ts.forEachChild(n, visit);
  };
  visit(parse(path, text));
  return { strings, heads };
}

/** The keys of a catalog part (its object literal's property names). */
export function partKeys(text) {
  return [...text.matchAll(/^\s*'([^']+)'\s*:/gm)].map((m) => m[1]);
}

/**
 * The keys the entry's modules use that are not first-screen keys, as readable lines.
 * `modules`: {path: text} of the entry's modules; `first`, `all`: sets of keys.
 */
export function missing(modules, first, all) {
  const out = [];
  for (const [path, text] of Object.entries(modules)) {
    if (path.startsWith(join('logic', 'lang'))) continue; // the catalogs themselves
    const { strings, heads } = literals(path, text);
    for (const s of strings)
      if (all.has(s) && !first.has(s))
        out.push(`${path}: '${s}' is not among the first screen's words (en_first.ts)`);
    for (const head of heads) {
      if (!/^[a-z]+\.[\w.]*$/.test(head)) continue;
      const made = [...all].filter((k) => k.startsWith(head));
      const later = made.filter((k) => !first.has(k));
      if (later.length)
        out.push(`${path}: \`${head}\${…}\` can make ${later.join(', ')}, not first-screen words`);
    }
  }
  return out;
}

/** The keys of the English parts that a join file (en_first.ts, en.ts's parts) imports. */
function joinedKeys(joinFile) {
  const text = readFileSync(join(src, 'logic', 'lang', joinFile), 'utf8');
  const keys = new Set();
  for (const m of text.matchAll(/from '\.\/en\/(\w+)\.ts'/g))
    for (const k of partKeys(readFileSync(join(src, 'logic', 'lang', 'en', `${m[1]}.ts`), 'utf8')))
      keys.add(k);
  return keys;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const read = (m) => readFileSync(join(src, m), 'utf8');
  const modules = {};
  for (const m of entryModules(read)) modules[m] = read(m);
  const first = joinedKeys('en_first.ts');
  const all = new Set([...first, ...joinedKeys('en_more.ts')]);
  const found = missing(modules, first, all);
  for (const line of found) console.error(line);
  if (found.length) {
    console.error(`check-first-words: ${found.length} key(s) the first screen cannot show`);
    process.exit(1);
  }
  console.log(
    `check-first-words: the entry script's ${Object.keys(modules).length} modules use only the ` +
      `first screen's ${first.size} of ${all.size} English keys (${relative(web, src)}/logic/lang/en_first.ts)`,
  );
}
