// Help for a newcomer at the table: with the setting on, a forced move (one piece can move) plays
// itself after a short look; and the player's path is drawn during their first game (the "Show
// path" toggle does the same on request).

import { t as tr } from '../logic/i18n.ts';
import type { LegalTarget } from './board.ts';
import { onClick, setText } from './dom.ts';
import { settings } from './settings.ts';

const PLAYED = 'ur.played';

export class TableAssist {
  private timer = 0;

  constructor(
    private readonly pathButton: HTMLButtonElement,
    private readonly showPath: (on: boolean) => void,
  ) {
    onClick(pathButton, () => this.setPath(pathButton.getAttribute('aria-pressed') !== 'true'));
  }

  setPath(on: boolean): void {
    this.pathButton.setAttribute('aria-pressed', String(on));
    setText(this.pathButton, tr(on ? 'board.hidePath' : 'table.showPath'));
    this.showPath(on);
  }

  /** Once seated in a game: the first game ever shows the path; later ones do not. */
  seated(): void {
    if (localStorage.getItem(PLAYED) === '1') return;
    localStorage.setItem(PLAYED, '1');
    this.setPath(true);
  }

  /** Plays `targets[0]` after a moment when it is the only move and the setting asks for it. */
  maybeAutoMove(targets: LegalTarget[], still: () => boolean, pick: (t: LegalTarget) => void) {
    window.clearTimeout(this.timer);
    if (!settings().autoMove || targets.length !== 1) return;
    this.timer = window.setTimeout(() => still() && pick(targets[0]), 600);
  }

  destroy(): void {
    window.clearTimeout(this.timer);
  }
}
