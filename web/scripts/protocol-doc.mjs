// Reads the WebSocket protocol twice — from docs/protocol.md (the one description) and from the
// client's TypeScript (src/net/protocol.ts, src/logic/types.ts and events.ts, through the compiler's own type
// checker) — and lists every difference. protocol-doc.test.mjs fails on any.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const web = fileURLToPath(new URL('..', import.meta.url));
export const DOC = `${web}../docs/protocol.md`;
export const PROTOCOL_TS = `${web}src/net/protocol.ts`;
export const TYPES_TS = `${web}src/logic/types.ts`;
export const EVENTS_TS = `${web}src/logic/events.ts`;

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

/** The keys of the outermost object of an example that starts at `text` ("..." and {...} allowed). */
function topKeys(text) {
  const keys = [];
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      if (--depth === 0) break;
    } else if (c === '"') {
      const end = text.indexOf('"', i + 1);
      if (depth === 1 && /^\s*:/.test(text.slice(end + 1))) keys.push(text.slice(i + 1, end));
      i = end;
    }
  }
  return keys;
}

/**
 * Each server message described in bold: the fields of its example (the envelope aside) and the
 * words about it. A message without an example of its own shares the next one's (`joined` is
 * described "as **`match_found`**").
 */
function serverMessages(doc, client) {
  const found = [];
  for (const m of doc.matchAll(/\*\*`([a-z_]+)`\*\*/g)) {
    const rest = doc.slice(m.index + m[0].length);
    const next = rest.search(/\*\*`[a-z_]+`\*\*|\n##/);
    const text = next < 0 ? rest : rest.slice(0, next);
    // A client message's name in bold is a server message only when its example says so.
    if (m[1] in client && !text.includes(`"type": "${m[1]}"`)) continue;
    const at = text.indexOf('{"');
    found.push({ type: m[1], text, fields: at < 0 ? null : topKeys(text.slice(at)) });
  }
  const out = {};
  found.forEach((f, i) => {
    const shared = found.slice(i).find((g) => g.fields);
    const fields = (f.fields ?? shared?.fields ?? []).filter(
      (k) => !['v', 'type', 're'].includes(k),
    );
    out[f.type] = { fields: fields.sort(), text: f.text + (f.fields ? '' : (shared?.text ?? '')) };
  });
  return out;
}

/** From the document: client messages with their fields, server message types, the snapshot. */
export function fromDoc(doc) {
  const client = {};
  for (const [type, fields] of tableAfter(doc, '## Client → server'))
    client[topLevelNames(type)[0]] = topLevelNames(fields).sort();
  const server = new Set();
  const replies = {};
  // What the server answers each client message with, and the messages described in bold.
  for (const row of tableAfter(doc, '## Client → server')) {
    replies[topLevelNames(row[0])[0]] = topLevelNames(row[2])[0];
    server.add(topLevelNames(row[2])[0]);
  }
  const events = {};
  for (const [kind, fields] of tableAfter(doc, '### Table events'))
    events[topLevelNames(kind)[0]] = topLevelNames(fields.replace(/\([^)]*\)/g, '')).sort();
  const example = doc.slice(doc.indexOf('**`table`** — broadcast'));
  const start = example.indexOf('```json') + 7;
  const json = example.slice(start, example.indexOf('```', start));
  // The example elides with "..." and "{...}": drop those to read it as JSON.
  const table = JSON.parse(json.replace(/\{\.\.\.\}/g, '{}').replace(/,\s*\.\.\./g, ''));
  const tables = doc.slice(doc.indexOf('## Tables'), doc.indexOf('## Bots'));
  const messages = serverMessages(doc, client);
  for (const type of Object.keys(messages)) server.add(type);
  return {
    client,
    server: [...server].sort(),
    replies,
    messages,
    events,
    table,
    tablesText: tables,
  };
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
  return ts.createProgram([PROTOCOL_TS, TYPES_TS, EVENTS_TS], options);
}

function declaration(p, file, name) {
  const src = p.getSourceFile(file);
  const found = src.statements.find((s) => s.name?.text === name);
  if (!found) throw new Error(`${file} declares no ${name}`);
  return found;
}

/** From the TypeScript: the same, as the type checker sees them. */
export function fromTs() {
  const p = program();
  const checker = p.getTypeChecker();
  const propsOf = (type) => checker.getPropertiesOfType(type).map((s) => s.name);
  const client = {};
  const sent = checker.getTypeAtLocation(declaration(p, PROTOCOL_TS, 'ClientMessages'));
  for (const sym of checker.getPropertiesOfType(sent)) {
    const type = checker.getTypeOfSymbolAtLocation(sym, sym.declarations[0]);
    client[sym.name] = propsOf(type).sort();
  }
  const server = [];
  const messages = {};
  const byType = checker.getTypeAtLocation(declaration(p, PROTOCOL_TS, 'ServerMessages'));
  for (const sym of checker.getPropertiesOfType(byType)) {
    server.push(sym.name);
    messages[sym.name] = propsOf(checker.getTypeOfSymbolAtLocation(sym, sym.declarations[0]));
  }
  server.sort();
  const replies = {};
  const answers = checker.getTypeAtLocation(declaration(p, PROTOCOL_TS, 'Replies'));
  for (const sym of checker.getPropertiesOfType(answers))
    replies[sym.name] = checker.getTypeOfSymbolAtLocation(sym, sym.declarations[0]).value;
  const kinds = checker.getTypeAtLocation(declaration(p, EVENTS_TS, 'TableEventKind'));
  const events = { kinds: kinds.types.map((t) => t.value).sort() };
  events.fields = propsOf(checker.getTypeAtLocation(declaration(p, EVENTS_TS, 'TableEvent')));
  const shapes = {};
  for (const name of ['Snapshot', 'SeatInfo', 'GameState', 'LegalMove', 'SeatPieces', 'Clock'])
    shapes[name] = propsOf(checker.getTypeAtLocation(declaration(p, TYPES_TS, name)));
  return { client, server, replies, messages, events, shapes };
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
  out.push(...serverDifferences(doc, code));
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

/** The server messages' answers and fields, and the table events, compared. */
function serverDifferences(doc, code) {
  const out = [];
  for (const [type, answer] of Object.entries(doc.replies))
    if (type in code.client && code.replies[type] !== answer)
      out.push(
        `${type} is answered with ${answer} in protocol.md, ${code.replies[type]} in protocol.ts`,
      );
  for (const [type, m] of Object.entries(doc.messages)) {
    const fields = code.messages[type];
    if (!fields) continue; // a type on one side only is reported above
    for (const f of m.fields)
      if (!fields.includes(f)) out.push(`${type}.${f}: in protocol.md only`);
    for (const f of fields)
      if (!m.fields.includes(f) && !new RegExp(`[\`"]${f}[\`"]`).test(m.text))
        out.push(`${type}.${f}: in protocol.ts only (protocol.md's ${type} never names it)`);
  }
  const kinds = Object.keys(doc.events).sort();
  for (const k of kinds)
    if (!code.events.kinds.includes(k)) out.push(`event ${k}: in protocol.md only`);
  for (const k of code.events.kinds)
    if (!kinds.includes(k)) out.push(`event ${k}: in types.ts only`);
  const docFields = new Set(['kind', ...Object.values(doc.events).flat()]);
  for (const f of docFields)
    if (!code.events.fields.includes(f)) out.push(`event field ${f}: in protocol.md only`);
  for (const f of code.events.fields)
    if (!docFields.has(f)) out.push(`event field ${f}: in types.ts only`);
  return out;
}

export const readDoc = () => fromDoc(readFileSync(DOC, 'utf8'));
