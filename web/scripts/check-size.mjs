// The house rule for web/src (CONTRIBUTING.md, "House rules"): no file over 400 lines, no
// function over 80 lines.
// Functions are measured with the TypeScript compiler's own parser (every function declaration,
// method, constructor, accessor, function expression and arrow function, nested ones included),
// from the line of their first token to the line of their last. No data table is excepted.
//   node scripts/check-size.mjs [dir]     (exit 1 and one line per breach when any)

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const MAX_FILE_LINES = 400;
const MAX_FUNCTION_LINES = 80;

const web = fileURLToPath(new URL('..', import.meta.url));
const root = process.argv[2] ?? join(web, 'src');

function* tsFiles(dir) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) yield* tsFiles(p);
    else if (name.endsWith('.ts')) yield p;
  }
}

const isFunction = (n) =>
  ts.isFunctionDeclaration(n) ||
  ts.isMethodDeclaration(n) ||
  ts.isConstructorDeclaration(n) ||
  ts.isGetAccessorDeclaration(n) ||
  ts.isSetAccessorDeclaration(n) ||
  ts.isFunctionExpression(n) ||
  ts.isArrowFunction(n);

function functionName(n) {
  if (n.name) return n.name.getText();
  if (ts.isConstructorDeclaration(n)) return 'constructor';
  const p = n.parent;
  if (
    p &&
    (ts.isVariableDeclaration(p) || ts.isPropertyAssignment(p) || ts.isPropertyDeclaration(p))
  )
    return p.name.getText();
  return '(anonymous)';
}

/** The breaches of one file's text, as readable lines. */
export function breaches(path, text) {
  const out = [];
  const src = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const lines = src.getLineAndCharacterOfPosition(src.end).line + (text.endsWith('\n') ? 0 : 1);
  if (lines > MAX_FILE_LINES) out.push(`${path}: ${lines} lines (at most ${MAX_FILE_LINES})`);
  const visit = (n) => {
    if (isFunction(n)) {
      const first = src.getLineAndCharacterOfPosition(n.getStart(src)).line;
      const last = src.getLineAndCharacterOfPosition(n.end).line;
      const length = last - first + 1;
      if (length > MAX_FUNCTION_LINES)
        out.push(
          `${path}:${first + 1}: function ${functionName(n)} has ${length} lines (at most ${MAX_FUNCTION_LINES})`,
        );
    }
    ts.forEachChild(n, visit);
  };
  visit(src);
  return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const found = [];
  for (const file of tsFiles(root))
    found.push(...breaches(relative(web, file), readFileSync(file, 'utf8')));
  for (const line of found) console.error(line);
  if (found.length) {
    console.error(
      `check-size: ${found.length} breach(es) of the size rules in ${relative(web, root) || root}`,
    );
    process.exit(1);
  }
  console.log('check-size: every file ≤ 400 lines, every function ≤ 80 lines');
}
