// A game's review as an image to share: the players, the summary in words, each player's
// accuracy and luck, and the win-chance graph with its marks, drawn as a standalone SVG (its
// colours written in, no page styles) and turned into a PNG by the browser's canvas.

import type { Names } from '../logic/types.ts';
import { decompositionWords, playerLines, plotPoints } from '../logic/review.ts';
import type { AnalysisAnswer } from '../logic/types.ts';
import { t } from '../logic/i18n.ts';
import { svg } from './dom.ts';
import { pct0 } from './review_graph.ts';

const W = 720;
const GRAPH = { x: 48, y: 150, w: 650, h: 170 };
const MARK_FILL: Record<string, string> = {
  mistake: '#e07b00',
  blunder: '#c0151c',
  luck: '#1d7a32',
};

function text(x: number, y: number, s: string, size = 14, extra: Record<string, string> = {}) {
  const t = svg('text', {
    x,
    y,
    'font-size': size,
    'font-family': 'sans-serif',
    fill: '#1f1a14',
    ...extra,
  });
  t.textContent = s;
  return t;
}

/** Words cut into lines of at most `max` characters, at spaces. */
function wrap(s: string, max: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const w of s.split(' ')) {
    if (line && line.length + 1 + w.length > max) (lines.push(line), (line = w));
    else line = line ? `${line} ${w}` : w;
  }
  if (line) lines.push(line);
  return lines;
}

function graphPart(a: AnalysisAnswer, names: Names): SVGElement {
  const g = svg('g', { transform: `translate(${GRAPH.x},${GRAPH.y})` });
  const { w, h } = GRAPH;
  g.append(
    svg('rect', { x: 0, y: 0, width: w, height: h, fill: '#fffaf0', stroke: '#6b5f50' }),
    svg('line', {
      x1: 0,
      x2: w,
      y1: h / 2,
      y2: h / 2,
      stroke: '#6b5f50',
      'stroke-dasharray': '4 4',
    }),
  );
  const pts = plotPoints(a.graph ?? [], w, h);
  g.append(
    svg('polyline', {
      points: pts.map((p) => `${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(' '),
      fill: 'none',
      stroke: '#333',
      'stroke-width': 2,
    }),
  );
  for (const p of pts.filter((q) => q.mark))
    g.append(
      p.mark === 'luck'
        ? svg('polygon', {
            points: `${p.x},${p.y - 6} ${p.x - 5},${p.y + 4} ${p.x + 5},${p.y + 4}`,
            fill: MARK_FILL.luck,
          })
        : svg('circle', { cx: p.x, cy: p.y, r: 4.5, fill: MARK_FILL[p.mark!] }),
    );
  const axis = { 'text-anchor': 'end', fill: '#6b5f50' };
  g.append(
    text(-6, 10, pct0(1), 11, axis),
    text(-6, h / 2 + 4, pct0(0.5), 11, axis),
    text(-6, h, pct0(0), 11, axis),
    text(0, h + 16, t('graph.start'), 11, { fill: '#6b5f50' }),
    text(w, h + 16, t('graph.endShort'), 11, { ...axis }),
    text(w / 2, h + 16, t('graph.title', { name: names[1] }), 11, {
      'text-anchor': 'middle',
      fill: '#6b5f50',
    }),
    text(0, h + 34, t('graph.legend'), 11, { fill: '#6b5f50' }),
  );
  return g;
}

/** The review drawn as a standalone SVG document. */
export function reviewSvg(a: AnalysisAnswer, names: Names, title: string): SVGSVGElement {
  const root = svg('svg', {
    xmlns: 'http://www.w3.org/2000/svg',
    width: W,
    height: 380,
    viewBox: `0 0 ${W} 380`,
  });
  root.append(svg('rect', { x: 0, y: 0, width: W, height: 380, fill: '#f6f1e7' }));
  root.append(text(16, 28, title, 18, { 'font-weight': '700' }));
  let y = 52;
  const summary = decompositionWords(a, names);
  const words = a.estimate ? t('graph.estimated', { text: summary }) : summary;
  for (const line of wrap(words, 92)) (root.append(text(16, y, line, 13)), (y += 17));
  for (const line of playerLines(a, names))
    for (const part of wrap(line, 96))
      (root.append(text(16, y, part, 12, { fill: '#6b5f50' })), (y += 15));
  root.append(graphPart(a, names));
  return root;
}

/** The review as a PNG (twice the SVG's size, for sharp text on phones). */
export async function reviewPng(a: AnalysisAnswer, names: Names, title: string): Promise<Blob> {
  const doc = new XMLSerializer().serializeToString(reviewSvg(a, names, title));
  const url = URL.createObjectURL(new Blob([doc], { type: 'image/svg+xml' }));
  try {
    const img = new Image();
    img.src = url;
    await img.decode();
    const canvas = document.createElement('canvas');
    canvas.width = W * 2;
    canvas.height = 380 * 2;
    const ctx = canvas.getContext('2d')!;
    ctx.scale(2, 2);
    ctx.drawImage(img, 0, 0);
    return await new Promise<Blob>((res, rej) =>
      canvas.toBlob(
        (b) => (b ? res(b) : rej(new Error('the image could not be made'))),
        'image/png',
      ),
    );
  } finally {
    URL.revokeObjectURL(url);
  }
}
