// The line of script in the page's head (index.html, written by vite.config.ts at build time):
// on a cold start at the puzzle pages it asks at once for their script and the chunks it imports
// (module preloads, compiled off the main thread while the first script is fetched and run) and,
// at #/puzzles, #/puzzles/streak and #/puzzles/daily, for the first puzzle with its rule set: the
// same request main.ts would make later (net/api.ts takes its answer: headFetch). Anywhere else
// it asks for nothing. Plain old script: it runs before any module. test/head_script.test.ts
// checks that its requests are the ones the app would make.

/** What the head script leaves for net/api.ts: the path it asked for and the answer to come. */
export interface HeadFetch {
  path: string;
  res: Promise<Response>;
}

/** The script's text (without the <script> tags) for the puzzle pages' chunk files. */
export function headScript(files: string[]): string {
  return [
    '(function(){var h=location.hash;',
    'var m=/^#\\/puzzles(?:\\/(streak|daily))?\\/?$/.exec(h);',
    'if(!m&&!/^#\\/(puzzles|mistakes)(\\/|\\?|$)/.test(h))return;',
    `${JSON.stringify(files)}.forEach(function(f){var l=document.createElement("link");`,
    'l.rel="modulepreload";l.href=f;document.head.appendChild(l)});',
    'if(!m)return;',
    'var p="/api/puzzles/"+(m[1]==="daily"?"daily":"next")+"?rules_info=1";',
    'var r=fetch(p,{credentials:"same-origin"});r.catch(function(){});',
    'window.urHeadFetch={path:p,res:r}})()',
  ].join('');
}
