// No English word on screen outside the catalogs (docs/languages.md): every text a player reads
// comes from lang/<code>/*.ts through t(). This lint parses web/src/ui/*.ts with the TypeScript
// compiler and looks at what is passed as text:
//   - h(tag, {text, title, 'aria-label', placeholder, alt, label}, ...children): those properties
//     and the string children;
//   - el.textContent / innerText / title / placeholder / alt = …;
//   - setText(el, …), el.setAttribute('aria-label' | 'title' | 'placeholder' | 'alt', …);
//   - el.append / prepend / replaceChildren / before / after (…) and app.toast(…) string arguments;
//   - view.failed(text, help) (the table screen's "cannot be shown"): both arguments.
// A text is the literal parts of a string or template (through ?:, ||, ?? and +, and through a
// file constant it names: TEXT, TABLE[key], TABLE.key); what a call returns (t(…), a name, a
// number) is not looked into. A literal part with a run of three or more Latin letters is an
// English word, unless ALLOWED says it is not a word.
//   node scripts/check-words.mjs [dir]     (exit 1 and one line per word found when any)

import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/**
 * Not words, though they are written in Latin letters: each with why. Matched against the whole
 * literal part (trimmed).
 */
export const ALLOWED = [
  // The file names of a game's downloads (share_game.ts): ur-<id>.json, ur-<id>-review.png.
  /^ur-$/,
  /^(-review)?\.(json|txt|png)$/,
  // A URL or an address inside the site.
  /^(https?:\/\/|#\/|\/api\/)\S*$/,
  // A file format's name, the same in every language.
  /^(JSON|PNG|SVG)$/,
];

/**
 * Files whose translation is still to be merged: their words are printed but do not fail the
 * lint. Empty: every screen is translated; a name here (a file of src/ui/) is a debt.
 */
export const PENDING = [];

const TEXT_PROPS = new Set(['text', 'title', 'aria-label', 'placeholder', 'alt', 'label']);
const TEXT_FIELDS = new Set(['textContent', 'innerText', 'title', 'placeholder', 'alt']);
const TEXT_ATTRS = new Set(['aria-label', 'title', 'placeholder', 'alt']);
const CHILD_METHODS = new Set(['append', 'prepend', 'replaceChildren', 'before', 'after']);

const propName = (p) =>
  p.name && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name)) ? p.name.text : '';

/** A file's constants (`const X = …` at its top level), by name: texts may be kept in them. */
function constants(src) {
  const out = new Map();
  for (const st of src.statements)
    if (ts.isVariableStatement(st) && st.declarationList.flags & ts.NodeFlags.Const)
      for (const d of st.declarationList.declarations)
        if (ts.isIdentifier(d.name) && d.initializer) out.set(d.name.text, d.initializer);
  return out;
}

/** The values of an object or array literal (a table of texts, read by key or index). */
const tableValues = (e) =>
  ts.isObjectLiteralExpression(e)
    ? e.properties.filter(ts.isPropertyAssignment).map((p) => p.initializer)
    : ts.isArrayLiteralExpression(e)
      ? [...e.elements]
      : [];

/**
 * The literal parts of a text expression (not what calls give at run time); a file constant it
 * names (TEXT, TABLE[key], TABLE.key) is read for its literals too.
 */
function literalParts(e, consts = new Map()) {
  if (!e) return [];
  const parts = (x) => literalParts(x, consts);
  const base = (x) => (ts.isIdentifier(x) ? consts.get(x.text) : undefined);
  if (ts.isIdentifier(e) && consts.has(e.text)) {
    const init = consts.get(e.text);
    return ts.isStringLiteral(init) || ts.isTemplateExpression(init) ? parts(init) : [];
  }
  if (ts.isElementAccessExpression(e) && base(e.expression))
    return tableValues(base(e.expression)).flatMap(parts);
  if (ts.isPropertyAccessExpression(e) && base(e.expression)) {
    const table = base(e.expression);
    const prop = ts.isObjectLiteralExpression(table)
      ? table.properties.find((p) => ts.isPropertyAssignment(p) && propName(p) === e.name.text)
      : undefined;
    return prop ? parts(prop.initializer) : [];
  }
  if (ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e)) return [[e, e.text]];
  if (ts.isTemplateExpression(e))
    return [[e, e.head.text], ...e.templateSpans.map((s) => [e, s.literal.text])];
  if (ts.isParenthesizedExpression(e)) return parts(e.expression);
  if (ts.isConditionalExpression(e)) return [...parts(e.whenTrue), ...parts(e.whenFalse)];
  if (ts.isBinaryExpression(e)) {
    const op = e.operatorToken.kind;
    const k = ts.SyntaxKind;
    if (op === k.PlusToken || op === k.BarBarToken || op === k.QuestionQuestionToken)
      return [...parts(e.left), ...parts(e.right)];
    if (op === k.AmpersandAmpersandToken) return parts(e.right);
  }
  return [];
}

/** The expressions a call or an assignment passes as text. */
function textArguments(n) {
  if (ts.isBinaryExpression(n) && n.operatorToken.kind === ts.SyntaxKind.EqualsToken) {
    const l = n.left;
    return ts.isPropertyAccessExpression(l) && TEXT_FIELDS.has(l.name.text) ? [n.right] : [];
  }
  if (!ts.isCallExpression(n)) return [];
  const callee = n.expression;
  const name = ts.isIdentifier(callee)
    ? callee.text
    : ts.isPropertyAccessExpression(callee)
      ? callee.name.text
      : '';
  const args = n.arguments;
  if (name === 'h' && ts.isIdentifier(callee)) {
    const props = args[1] && ts.isObjectLiteralExpression(args[1]) ? args[1].properties : [];
    const texts = props
      .filter((p) => ts.isPropertyAssignment(p) && TEXT_PROPS.has(propName(p)))
      .map((p) => p.initializer);
    return [...texts, ...args.slice(2)];
  }
  if (name === 'setText') return args.slice(1, 2);
  if (name === 'setAttribute')
    return args[0] && ts.isStringLiteral(args[0]) && TEXT_ATTRS.has(args[0].text) ? [args[1]] : [];
  if (CHILD_METHODS.has(name) && ts.isPropertyAccessExpression(callee)) return [...args];
  if (name === 'toast') return args.slice(0, 1);
  if (name === 'failed' && ts.isPropertyAccessExpression(callee)) return [...args];
  return [];
}

const isWord = (text) => {
  const s = text.trim();
  return /[A-Za-z]{3,}/.test(s) && !ALLOWED.some((re) => re.test(s));
};

/** The English words of one file's text, as readable lines ("file:line: text"). */
export function englishWords(path, text) {
  const src = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const out = [];
  const consts = constants(src);
  const visit = (n) => {
    for (const arg of textArguments(n))
      for (const [node, part] of literalParts(arg, consts))
        if (isWord(part)) {
          const line = src.getLineAndCharacterOfPosition(node.getStart(src)).line + 1;
          out.push(`${path}:${line}: ${JSON.stringify(part.trim())}`);
        }
    ts.forEachChild(n, visit);
  };
  visit(src);
  return out;
}

const web = fileURLToPath(new URL('..', import.meta.url));

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dir = process.argv[2] ?? join(web, 'src/ui');
  const failing = [];
  const pending = [];
  for (const name of readdirSync(dir)
    .filter((f) => f.endsWith('.ts'))
    .sort()) {
    const found = englishWords(
      relative(web, join(dir, name)),
      readFileSync(join(dir, name), 'utf8'),
    );
    (PENDING.includes(name) ? pending : failing).push(...found);
  }
  for (const line of pending) console.log(`pending: ${line}`);
  for (const line of failing) console.error(line);
  if (failing.length) {
    console.error(`check-words: ${failing.length} English text(s) outside the catalogs`);
    process.exit(1);
  }
  console.log(
    `check-words: no English text outside the catalogs` +
      (pending.length
        ? ` (${pending.length} in files pending translation: ${PENDING.join(', ')})`
        : ''),
  );
}
