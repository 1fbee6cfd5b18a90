// The layout checks of the language tests (issue 30): every language at every size the client is
// made for, each screen visited once per language and looked at in each size by resizing the same
// page (the client's CSS has no touch or hover queries, so a resized desktop page lays out as the
// phone does). At each size: nothing wider than the screen, no text cut off inside its box, no
// serious axe-core finding, and a screenshot (language-<code>-<screen>-<size>.png).

import * as L from './lib.mjs';

/** The sizes the client is made for: two phones held upright and a laptop. */
export const SIZES = [
  { width: 360, height: 640, axe: true },
  { width: 390, height: 844, axe: false },
  { width: 1366, height: 768, axe: true },
];

/** Every language the client speaks, with a browser locale that chooses it. */
export const LANGUAGES = [
  ['en', 'en-GB'],
  ['de', 'de-DE'],
  ['nl', 'nl-NL'],
  ['fr', 'fr-FR'],
  ['es', 'es-ES'],
  ['ar', 'ar-EG'],
];

export const sizeName = (v) => `${v.width}x${v.height}`;

/**
 * What is cut or sticks out on the page as drawn: the page wider than the screen; a visible
 * element whose text overflows a box that hides it (overflow hidden or clip, an ellipsis), a
 * button or link-button whose label is wider or taller than the button, a block of text wider
 * than its own box (a long word standing out of it), text standing out of the screen (left or
 * right) outside a box that scrolls on purpose. Each problem names the element by
 * its text.
 */
export function overflowProblems(page) {
  return page.evaluate(() => {
    const root = document.documentElement;
    const out = [];
    if (root.scrollWidth > root.clientWidth)
      out.push(`the page is ${root.scrollWidth - root.clientWidth} px wider than the screen`);
    const words = (el) =>
      (el.getAttribute('aria-label') || el.textContent || el.value || el.tagName)
        .trim()
        .replace(/\s+/g, ' ')
        .slice(0, 60);
    const scrolls = (el) => {
      for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
        const s = getComputedStyle(p);
        if (['auto', 'scroll'].includes(s.overflowX)) return true;
      }
      return false;
    };
    const visible = (el, r) => {
      if (r.width <= 1 || r.height <= 1) return false; // hidden, or visually hidden (sr-only)
      const s = getComputedStyle(el);
      return s.visibility !== 'hidden' && s.display !== 'none' && el.closest('[hidden]') === null;
    };
    // Any element with text of its own whose box hides what does not fit.
    for (const el of document.querySelectorAll('body *')) {
      if (['SCRIPT', 'STYLE', 'svg', 'OPTION', 'SELECT', 'TEXTAREA', 'INPUT'].includes(el.tagName))
        continue;
      // The board's squares and the pieces are drawn, not written (L.boardFits checks them).
      // The header's own name and rating, and a player's name in a seat, are cut on a narrow
      // phone by design (header.css, style.css; the seat's name has the whole in its title): a
      // player's name, not the page's words. The computer's name is the page's words: checked.
      if (el.closest('.board, .piles, header .who, .seat-name .nm:not(.words)')) continue;
      const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
      const isButton = el.matches('button, a.button, [role=button]');
      if (!own && !isButton) continue;
      const r = el.getBoundingClientRect();
      if (!visible(el, r)) continue;
      const s = getComputedStyle(el);
      const hides = (o) => o === 'hidden' || o === 'clip';
      const cutX = el.scrollWidth > el.clientWidth + 1;
      const cutY = el.scrollHeight > el.clientHeight + 1;
      if ((isButton || hides(s.overflowX) || s.textOverflow === 'ellipsis') && cutX)
        out.push(`"${words(el)}" is cut (${el.scrollWidth} px of text in ${el.clientWidth} px)`);
      else if ((isButton || hides(s.overflowY)) && cutY)
        out.push(`"${words(el)}" is cut (${el.scrollHeight} px high in ${el.clientHeight} px)`);
      else if (own && s.display !== 'inline' && cutX && !['auto', 'scroll'].includes(s.overflowX))
        out.push(
          `"${words(el)}" stands out of its box (${el.scrollWidth} px in ${el.clientWidth} px)`,
        );
      else if ((r.right > root.clientWidth + 1 || r.left < -1) && !scrolls(el))
        out.push(
          `"${words(el)}" stands off the screen (${Math.round(r.left)}..${Math.round(r.right)})`,
        );
    }
    return out;
  });
}

/**
 * Looks at the page in every size (the page is left at the last): overflow and a screenshot at
 * each; axe (unless `axe` is false) at 360x640 and 1366x768, the upright phone's layout and the
 * laptop's (390x844 lays out as 360x640 does, and axe is the costly part of a look).
 * `extra(page)` returns further problems at each size. Returns the problems, each named with the
 * language, screen and size.
 */
export async function lookAtSizes(page, lang, screen, { axe = true, extra = null } = {}) {
  const problems = [];
  for (const size of SIZES) {
    await page.setViewportSize({ width: size.width, height: size.height });
    // A resize redraws on the next frames (the board's --cell is measured from the window).
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 150))));
    const what = `${lang} ${screen} ${sizeName(size)}`;
    problems.push(...(await overflowProblems(page)).map((p) => `${what}: ${p}`));
    if (extra) problems.push(...(await extra(page)).map((p) => `${what}: ${p}`));
    if (axe && size.axe) problems.push(...(await L.axeProblems(page, what)));
    await L.screenshot(page, `language-${lang}-${screen}-${sizeName(size)}`);
  }
  return problems;
}
