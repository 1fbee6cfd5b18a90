// The line of script in the page's head (index.html, written by vite.config.ts at build time). It
// runs before any module, while the first script is still being fetched, and asks at once for
// what the first screen would otherwise ask for only after the first script has run:
// - the words: a reader of another language than English waits for their catalog before any
//   screen (ui/language.ts), a reader of English for English's other words on every screen but
//   the lobby (logic/i18n.ts, wordsReady); the language is chosen as chooseLang chooses it (the
//   saved choice, else the browser's languages, else English);
// - on the puzzle pages, their script and the chunks it imports, and at #/puzzles,
//   #/puzzles/streak and #/puzzles/daily the first puzzle with its rule set: the same request
//   main.ts would make later (net/api.ts takes its answer: headFetch).
// Scripts are module preloads: fetched and compiled off the main thread, run when imported.
// test/head_script.test.ts checks that its requests are the ones the app makes.

/** What the head script leaves for net/api.ts: the path it asked for and the answer to come. */
export interface HeadFetch {
  path: string;
  res: Promise<Response>;
}

/** The chunk files the script may ask for. */
export interface HeadFiles {
  /** The puzzle pages' script and the chunks it imports. */
  puzzles: string[];
  /** Each language's catalog chunk; for English, its other words (lang/en_more.ts). */
  catalogs: Record<string, string>;
}

/** The script's text (without the <script> tags). */
export function headScript(files: HeadFiles): string {
  return [
    '(function(){var h=location.hash,d=document;',
    'function pre(f){var l=d.createElement("link");l.rel="modulepreload";l.href=f;d.head.appendChild(l)}',
    'var m=/^#\\/puzzles(?:\\/(streak|daily))?\\/?$/.exec(h);',
    'if(m||/^#\\/(puzzles|mistakes)(\\/|\\?|$)/.test(h)){',
    `${JSON.stringify(files.puzzles)}.forEach(pre);`,
    'if(m){var u="/api/puzzles/"+(m[1]==="daily"?"daily":"next")+"?rules_info=1";',
    'var r=fetch(u,{credentials:"same-origin"});r.catch(function(){});',
    'window.urHeadFetch={path:u,res:r}}}',
    // Last: a page's first read of its storage waits for the browser to open it (10–30 ms of
    // main thread on a cold start, measured), which the requests above need not wait for.
    // The language as logic/i18n.ts chooseLang chooses it (storage refused: the browser's).
    `var c=${JSON.stringify(files.catalogs)},g=null,s=null;`,
    'try{s=localStorage.getItem("ur.lang")}catch(e){}',
    'if(s&&c.hasOwnProperty(s))g=s;',
    'var b=navigator.languages||[navigator.language];',
    'for(var i=0;!g&&i<b.length;i++){var p=String(b[i]).toLowerCase().split("-")[0];',
    'if(c.hasOwnProperty(p))g=p}',
    'g=g||"en";',
    // The lobby (logic/route.ts parseHash) is the one screen that needs English's first words only.
    'if(g!=="en"||!/^#?\\/*(lobby\\/*)?(\\?.*)?$/.test(h))pre(c[g]);',
    '})()',
  ].join('');
}
