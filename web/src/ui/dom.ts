// A tiny element builder. Text always goes in through textContent (never innerHTML), so user
// names and server messages cannot inject markup.

import { dateTime } from '../logic/i18n.ts';

export type Child = Node | string | number | null | undefined | false;
type AttrValue = string | number | boolean | null | undefined | ((e: Event) => void);

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, AttrValue> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'text') el.textContent = String(v);
    else if (k === 'class') el.className = String(v);
    else if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (v === true) el.setAttribute(k, '');
    else el.setAttribute(k, String(v));
  }
  append(el, ...children);
  return el;
}

/** An SVG element with its attributes (SVG needs its namespace: h() makes HTML elements). */
export function svg<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | number>,
): SVGElementTagNameMap[K] {
  const el = document.createElementNS('http://www.w3.org/2000/svg', tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  return el;
}

export function append(el: Element, ...children: Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

export function clear(el: Element): void {
  el.replaceChildren();
}

export function setText(el: Element, text: string): void {
  if (el.textContent !== text) el.textContent = text;
}

/** Shows or hides without changing layout (the element keeps its space). */
export function setShown(el: HTMLElement, shown: boolean): void {
  el.style.visibility = shown ? 'visible' : 'hidden';
}

/** A moment as the page's language writes a date with the time (logic/i18n.ts). */
export function fmtDate(unixSeconds: number): string {
  return dateTime(unixSeconds);
}

export function prefersReducedMotion(): boolean {
  return window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
}

/**
 * Resolves once the browser has painted the current frame (a hidden tab paints nothing: then at
 * the next task). Work that only follows the first screen (requests, the socket) waits for it,
 * so that it does not delay that screen.
 */
export function afterPaint(): Promise<void> {
  return new Promise((resolve) => {
    const later = () => window.setTimeout(resolve, 0);
    if (document.hidden) later();
    else requestAnimationFrame(later);
  });
}

/** Runs `run` on every click of `el` (the one listener most screens add, said once). */
export function onClick(el: EventTarget, run: (e: MouseEvent) => void): void {
  el.addEventListener('click', run as EventListener);
}
