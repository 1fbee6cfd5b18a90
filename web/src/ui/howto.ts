// The "How to play" page of a rule set (#/rules/<preset>): the board with each side's path
// numbered, the rosettes and special squares as the table draws them, and the rules in words,
// all built from GET /api/rules/<preset> (logic/howto.ts), plus links to the other rule sets.

import { buildGeometry } from '../logic/geometry.ts';
import { howtoSections, rulesName } from '../logic/howto.ts';
import { t } from '../logic/i18n.ts';
import { plainSentence } from '../logic/plain.ts';
import { howtoHash, type Route } from '../logic/route.ts';
import type { SeatNo } from '../logic/types.ts';
import { rulesFor } from '../net/api.ts';
import { errorText, type App, type View } from './app.ts';
import { BoardView } from './board.ts';
import { h, onClick, setText } from './dom.ts';

export function mountHowto(app: App, root: HTMLElement, route: Route): View {
  if (route.name !== 'howto') return { destroy() {} };
  const title = h('h1', { text: t('howto.title') });
  const note = h('p', { class: 'hint', text: t('howto.loading') });
  const host = h('div', { class: 'howto-host replay-host' });
  const others = h('nav', { class: 'row howto-presets', 'aria-label': t('howto.ruleSets') });
  root.append(h('section', { class: 'howto-page' }, title, note, host, others));

  app
    .presets()
    .then((list) =>
      others.replaceChildren(
        h('span', { class: 'hint', text: t('howto.others') }),
        ...list
          .filter((p) => p.id !== route.preset)
          .map((p) =>
            h('a', {
              href: howtoHash(p.id),
              text: rulesName(p.id, p.name),
              title: plainSentence(p.id, p.summary),
            }),
          ),
      ),
    )
    .catch(() => {});

  rulesFor(route.preset)
    .then((rules) => {
      setText(title, t('howto.titleOf', { name: rulesName(rules.preset, rules.name) }));
      setText(note, plainSentence(rules.preset, rules.summary));
      const geo = buildGeometry(rules);
      const board = new BoardView(geo);
      board.render([], { legal: [], actingSeat: null });
      board.showPath(1);
      host.style.setProperty('--cols', String(geo.cols));
      const pathButtons = ([1, 2] as SeatNo[]).map((seat) => {
        const b = h('button', {
          type: 'button',
          class: 'small',
          'aria-pressed': String(seat === 1),
          text: t(seat === 1 ? 'howto.lightPath' : 'howto.darkPath'),
        });
        onClick(b, () => {
          board.showPath(seat);
          pathButtons.forEach((x, i) => x.setAttribute('aria-pressed', String(i + 1 === seat)));
        });
        return b;
      });
      host.append(
        h('div', { class: 'board-wrap' }, board.el),
        h('div', { class: 'row' }, ...pathButtons),
        ...howtoSections(rules).map((s) =>
          h(
            'section',
            { class: 'card howto-section' },
            h('h2', { text: s.title }),
            h('ul', {}, ...s.lines.map((l) => h('li', { text: l }))),
          ),
        ),
        h('p', {}, h('a', { class: 'button primary', href: '#/lobby', text: t('howto.play') })),
      );
    })
    .catch((e) => setText(note, t('howto.failed', { why: errorText(e) })));
  return { destroy() {} };
}
