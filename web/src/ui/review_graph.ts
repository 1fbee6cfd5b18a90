// The win-chance graph of the review as inline SVG (no chart library): light's winning chance
// after every step, mistakes (orange) and blunders (red) as dots, the luckiest throws as green
// triangles. A click anywhere picks the nearest step; the marks are buttons for the keyboard.

import { pct as percent, t, type Key } from '../logic/i18n.ts';
import { plotPoints, pct, type PlotPoint } from '../logic/review.ts';
import type { GraphPoint } from '../logic/types.ts';
import { h, onClick, svg } from './dom.ts';

/** An axis label: a whole percentage ("50%", "50 %"). */
export const pct0 = (v: number) => percent(v, 0);

const W = 600;
const H = 140;

export interface ReviewGraph {
  el: HTMLElement;
  /** Moves the "you are here" line to the frame on show. */
  at(frame: number): void;
}

const MARK_KEYS: Record<string, Key> = {
  mistake: 'graph.mistake',
  blunder: 'graph.blunder',
  luck: 'graph.luck',
};
const markWord = (mark: string) => (MARK_KEYS[mark] ? t(MARK_KEYS[mark]) : mark);

function markElement(p: PlotPoint): SVGElement {
  if (p.mark === 'luck')
    return svg('polygon', {
      points: `${p.x},${p.y - 6} ${p.x - 5},${p.y + 4} ${p.x + 5},${p.y + 4}`,
      class: 'g-mark g-luck',
    });
  return svg('circle', { cx: p.x, cy: p.y, r: 4.5, class: `g-mark g-${p.mark}` });
}

/** What the marks mean, in words beside their shapes (touch shows no hover title). */
function legend(): HTMLElement {
  const item = (cls: string, shape: SVGElement, text: string) => {
    const icon = svg('svg', { viewBox: '-6 -7 12 12', class: 'g-key', 'aria-hidden': 'true' });
    shape.setAttribute('class', `g-mark ${cls}`);
    icon.append(shape);
    return h('li', {}, icon, text);
  };
  return h(
    'ul',
    { class: 'g-legend' },
    item('g-mistake', svg('circle', { cx: 0, cy: 0, r: 4.5 }), t('graph.mistake')),
    item('g-blunder', svg('circle', { cx: 0, cy: 0, r: 4.5 }), t('graph.blunder')),
    item('g-luck', svg('polygon', { points: '0,-6 -5,4 5,4' }), t('graph.luck')),
    h('li', { class: 'g-half-key', text: t('graph.even') }),
  );
}

/** The graph with its title, axes and legend around it. */
function figure(root: SVGElement, lightName: string, last: number): HTMLElement {
  return h(
    'figure',
    { class: 'win-graph-box' },
    h(
      'figcaption',
      { class: 'g-title' },
      `${t('graph.title', { name: lightName })} `,
      h('span', { class: 'hint', text: t('graph.tap') }),
    ),
    h(
      'div',
      { class: 'g-yaxis', 'aria-hidden': 'true' },
      h('span', { text: pct0(1) }),
      h('span', { text: pct0(0.5) }),
      h('span', { text: pct0(0) }),
    ),
    root,
    h(
      'div',
      { class: 'g-xaxis', 'aria-hidden': 'true' },
      h('span', { text: t('graph.start') }),
      h('span', { text: t('graph.steps') }),
      h('span', { text: t('graph.end', { n: last }) }),
    ),
    legend(),
  );
}

/**
 * The graph; `jump(frame)` shows the replay frame after a point's event (frame 0: the start).
 * `lightName` names light in the title ("alice's winning chance").
 */
export function buildGraph(
  graph: GraphPoint[],
  lightName: string,
  jump: (frame: number) => void,
): ReviewGraph {
  const pts = plotPoints(graph, W, H);
  const root = svg('svg', {
    viewBox: `0 0 ${W} ${H}`,
    class: 'win-graph',
    role: 'group',
    'aria-label': t('graph.aria', { name: lightName }),
    preserveAspectRatio: 'none',
  });
  root.append(
    svg('rect', { x: 0, y: 0, width: W, height: H, class: 'g-bg' }),
    svg('line', { x1: 0, x2: W, y1: H / 2, y2: H / 2, class: 'g-half' }),
    svg('polyline', {
      points: pts.map((p) => `${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(' '),
      class: 'g-line',
    }),
  );
  const here = svg('line', { x1: 0, x2: 0, y1: 0, y2: H, class: 'g-here' });
  root.append(here);
  const frameOf = (p: GraphPoint) => p.event + 1;
  for (const p of pts.filter((q) => q.mark)) {
    const m = markElement(p);
    m.setAttribute('tabindex', '0');
    m.setAttribute('role', 'button');
    m.setAttribute('data-event', String(p.event));
    const mark = markWord(p.mark!);
    m.setAttribute('aria-label', t('graph.markAt', { mark, step: p.step, pct: pct(p.light) }));
    const title = svg('title', {});
    title.textContent = t('graph.markTitle', { mark, name: lightName, pct: pct(p.light) });
    m.append(title);
    onClick(m, (e) => (e.stopPropagation(), jump(frameOf(p))));
    m.addEventListener('keydown', (e) => {
      if (e.key !== 'Enter' && e.key !== ' ') return;
      e.preventDefault();
      e.stopPropagation();
      jump(frameOf(p));
    });
    root.append(m);
  }
  onClick(root, (e) => {
    const box = root.getBoundingClientRect();
    if (!box.width || !pts.length) return;
    const x = ((e.clientX - box.left) / box.width) * W;
    let best = pts[0];
    for (const p of pts) if (Math.abs(p.x - x) < Math.abs(best.x - x)) best = p;
    jump(frameOf(best));
  });
  const el = figure(root, lightName, graph[graph.length - 1]?.step ?? 0);
  return {
    el,
    at(frame: number) {
      // The last point at or before the frame's event (throws and decisions each have one).
      let x = pts[0]?.x ?? 0;
      for (const p of pts) if (frameOf(p) <= frame) x = p.x;
      here.setAttribute('x1', String(x));
      here.setAttribute('x2', String(x));
    },
  };
}
