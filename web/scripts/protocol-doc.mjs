// Reads the WebSocket protocol twice — from docs/protocol.md (the one description) and from the
// client's TypeScript (src/net/protocol.ts, src/logic/types.ts, through the compiler's own type
// checker) — and lists every difference. protocol-doc.test.mjs fails on any.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const web = fileURLToPath(new URL('..', import.meta.url));
export const DOC = `${web}../docs/protocol.md`;
export const PROTOCOL_TS = `${web}src/net/protocol.ts`;
export const TYPES_TS = `${web}src/logic/types.ts`;

/** The rows of the first Markdown table after `heading`, as arrays of cells. */
function tableAfter(doc, heading) {
  const at = doc.indexOf(heading);
  if (at < 0) throw new Error(`protocol.md has no "${heading}"`);
  const rows = [];
  for (const line of doc.slice(at).split('\n').slice(1)) {
    if (!line.startsWith('|')) {
      if (rows.length) break;
      continue;
    }
    if (/^\|[-\s|]+\|$/.test(line)) continue;
    rows.push(
      line
        .split('|')
        .slice(1, -1)
        .map((c) => c.trim()),
    );
  }
  return rows.slice(1); // the header row
}

/** The backticked names outside parentheses: the fields of a cell, not the words about them. */
function topLevelNames(cell) {
  const names = [];
  let depth = 0;
  for (const m of cell.matchAll(/[()]|`([^`]*)`/g)) {
    if (m[0] === '(') depth++;
    else if (m[0] === ')') depth = Math.max(0, depth - 1);
    else if (depth === 0 && /^[a-z_]+$/.test(m[1])) names.push(m[1]);
  }
  return names;
}

/** From the document: client messages with their fields, server message types, the snapshot. */
export function fromDoc(doc) {
  const client = {};
  for (const [type, fields] of tableAfter(doc, '## Client → server'))
    client[topLevelNames(type)[0]] = topLevelNames(fields).sort();
  const server = new Set();
  // What the server answers each client message with, and the messages described in bold.
  for (const row of tableAfter(doc, '## Client → server')) server.add(topLevelNames(row[2])[0]);
  for (const m of doc.matchAll(/\*\*`([a-z_]+)`\*\*/g)) if (!(m[1] in client)) server.add(m[1]);
  const example = doc.slice(doc.indexOf('**`table`** — broadcast'));
  const start = example.indexOf('```json') + 7;
  const json = example.slice(start, example.indexOf('```', start));
  // The example elides with "..." and "{...}": drop those to read it as JSON.
  const table = JSON.parse(json.replace(/\{\.\.\.\}/g, '{}').replace(/,\s*\.\.\./g, ''));
  const tables = doc.slice(doc.indexOf('## Tables'), doc.indexOf('## Bots'));
  return { client, server: [...server].sort(), table, tablesText: tables };
}

function program() {
  const options = {
    strict: true,
    noEmit: true,
    allowImportingTsExtensions: true,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    target: ts.ScriptTarget.ES2022,
    types: [],
  };
  return ts.createProgram([PROTOCOL_TS, TYPES_TS], options);
}

function declaration(p, file, name) {
  const src = p.getSourceFile(file);
  const found = src.statements.find((s) => s.name?.text === name);
  if (!found) throw new Error(`${file} declares no ${name}`);
  return found;
}

/** From the TypeScript: the same three, as the type checker sees them. */
export function fromTs() {
  const p = program();
  const checker = p.getTypeChecker();
  const propsOf = (type) => checker.getPropertiesOfType(type).map((s) => s.name);
  const client = {};
  const messages = checker.getTypeAtLocation(declaration(p, PROTOCOL_TS, 'ClientMessages'));
  for (const sym of checker.getPropertiesOfType(messages)) {
    const type = checker.getTypeOfSymbolAtLocation(sym, sym.declarations[0]);
    client[sym.name] = propsOf(type).sort();
  }
  const union = checker.getTypeAtLocation(declaration(p, PROTOCOL_TS, 'ServerType'));
  const server = union.types.map((t) => t.value).sort();
  const shapes = {};
  for (const name of ['Snapshot', 'SeatInfo', 'GameState', 'LegalMove', 'SeatPieces', 'Clock'])
    shapes[name] = propsOf(checker.getTypeAtLocation(declaration(p, TYPES_TS, name)));
  return { client, server, shapes };
}

const keys = (o) => (o && typeof o === 'object' ? Object.keys(o) : []);

/** Every difference, in words; none when the document and the client agree. */
export function differences(doc, code) {
  const out = [];
  const types = new Set([...Object.keys(doc.client), ...Object.keys(code.client)]);
  for (const type of types) {
    if (!(type in code.client)) out.push(`client message ${type}: in protocol.md only`);
    else if (!(type in doc.client)) out.push(`client message ${type}: in protocol.ts only`);
    else
      for (const f of new Set([...doc.client[type], ...code.client[type]])) {
        if (!code.client[type].includes(f)) out.push(`${type}.${f}: in protocol.md only`);
        if (!doc.client[type].includes(f)) out.push(`${type}.${f}: in protocol.ts only`);
      }
  }
  for (const t of doc.server)
    if (!code.server.includes(t)) out.push(`server message ${t}: in protocol.md only`);
  for (const t of code.server)
    if (!doc.server.includes(t)) out.push(`server message ${t}: in protocol.ts only`);
  const t = doc.table.table;
  const example = {
    Snapshot: keys(t),
    SeatInfo: (t?.seats ?? []).flatMap(keys),
    GameState: keys(t?.game),
    LegalMove: (t?.game?.legal_moves ?? []).flatMap(keys),
    SeatPieces: (t?.game?.pieces ?? []).flatMap(keys),
    Clock: keys(doc.table.clock),
  };
  for (const [shape, fields] of Object.entries(example)) {
    for (const f of new Set(fields))
      if (!code.shapes[shape].includes(f)) out.push(`${shape}.${f}: in protocol.md only`);
    for (const f of code.shapes[shape])
      if (!new RegExp(`\\b${f}\\b`).test(doc.tablesText))
        out.push(`${shape}.${f}: in types.ts only (protocol.md's "Tables" never names it)`);
  }
  return out;
}

export const readDoc = () => fromDoc(readFileSync(DOC, 'utf8'));
