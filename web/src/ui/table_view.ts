// The table screen's elements and how a snapshot is drawn on them: the bar (rule set, status,
// spectators, invite link, visibility, Resign, Leave), the side panel (both seats with their Home
// and borne-off piles, the dice, the Roll button, the status line, the idle countdown), the move
// log and the post-game banner. Everything is built once; a redraw changes text,
// classes and visibility only, so the layout does not shift while playing.

import { t } from '../logic/i18n.ts';
import { seatName, tableStateText } from '../logic/status.ts';
import { rulesName } from '../logic/known.ts';
import type { LegalMove, SeatNo, Snapshot } from '../logic/types.ts';
import { howtoHash, inviteUrl } from '../logic/route.ts';
import { buildBanner } from './banner.ts';
import { pieceElement, type BoardView } from './board.ts';
import type { DiceView } from './dice.ts';
import { clear, h, onClick, setShown, setText } from './dom.ts';
import type { BannerAction } from './rematch.ts';
import { inviteBox } from './table_invite.ts';

/** Where the board stands and the panel beside it is narrow (style.css says the same). */
const UPRIGHT_PHONE = '(orientation: portrait) and (max-width: 760px)';

export class TableView {
  readonly page = h('div', { class: 'table-page loading' });
  readonly fx = h('div', { class: 'fx', 'aria-hidden': 'true' });
  readonly visButton = h('button', { type: 'button', 'data-action': 'visibility' });
  readonly resignButton = h('button', {
    type: 'button',
    class: 'danger',
    'data-action': 'resign',
    text: t('table.resign'),
    hidden: true, // shown to a seated player once the table is drawn (table_draw.ts)
  });
  readonly leaveButton = h('button', {
    type: 'button',
    'data-action': 'leave',
    text: t('table.leave'),
  });
  /** Pass and play: takes back the last move. */
  readonly undoButton = h('button', {
    type: 'button',
    'data-action': 'undo',
    text: t('table.undo'),
    title: t('table.undoTitle'),
    hidden: true,
  });
  readonly rollButton = h('button', {
    type: 'button',
    class: 'primary roll',
    'data-action': 'roll',
    text: t('table.roll'),
    disabled: true,
  });
  readonly pathButton = h('button', {
    type: 'button',
    class: 'small',
    'data-action': 'path',
    text: t('table.showPath'),
    'aria-pressed': 'false',
  });
  readonly awardRow = h('div', { class: 'award-row' });
  private readonly rulesName = h('span', { class: 'rules-name', text: t('table.table') });
  readonly howtoLink = h('a', {
    class: 'howto-link',
    href: '#/lobby',
    text: t('table.howto'),
  });
  /** Set by the page: what the banner offers after the game (rematch.ts). */
  afterGame: (snap: Snapshot) => { actions: BannerAction[]; note: string } = () => ({
    actions: [],
    note: '',
  });
  private bannerRematch = '';
  private readonly statusBadge = h('span', { class: 'badge table-status' });
  private readonly publicBadge = h('span', {
    class: 'badge public-badge',
    text: t('table.publicBadge'),
    title: t('table.publicTitle'),
    hidden: true,
  });
  private readonly watchers = h('span', { class: 'watchers', title: t('table.spectators') });
  private readonly invite = inviteBox((text, tone) => this.toast(text, tone));
  private readonly boardWrap = h('div', { class: 'board-wrap' });
  private readonly bannerHost = h('div', { class: 'banner-host' });
  private readonly seatBoxes = new Map<SeatNo, HTMLElement>();
  private readonly statusMain = h('p', { class: 'status-main', role: 'status' });
  private readonly statusNews = h('p', { class: 'status-news' });
  private readonly countdown = h('p', { class: 'countdown', 'aria-live': 'off' });
  private readonly clockFill = h('span', { class: 'clock-fill' });
  private readonly clockBar = h(
    'div',
    { class: 'clock-bar', 'aria-hidden': 'true' },
    this.clockFill,
  );
  private readonly errorLine = h('p', { class: 'table-error', role: 'alert' });
  // Focusable, so that keyboard users can scroll it.
  private readonly log = h('ol', { class: 'log', 'aria-label': t('table.moves'), tabindex: 0 });
  private readonly diceHost = h('div', { class: 'dice-host' });
  private bannerShownFor = -1;
  private bannerClosed = false;

  /** How the page tells the player something (the app's toasts). */
  toast: (text: string, tone: 'info' | 'good') => void = () => {};
  /** Opens the rule set's how-to over the table (the link's page when unset). */
  onHowto: ((preset: string) => void) | null = null;
  private rulesId = '';
  /** Asked to make the table public (true) or private. */
  onVisibility: (pub: boolean) => void = () => {};
  private isPublic = false;

  constructor(id: string) {
    onClick(this.visButton, () => this.onVisibility(!this.isPublic));
    onClick(this.howtoLink, (e) => {
      if (!this.onHowto || !this.rulesId) return;
      e.preventDefault();
      this.onHowto(this.rulesId);
    });
    const bar = h(
      'div',
      { class: 'table-bar' },
      h(
        'div',
        { class: 'tb-left' },
        this.rulesName,
        this.statusBadge,
        this.publicBadge,
        this.watchers,
        this.howtoLink,
      ),
      this.invite.el,
      h(
        'div',
        { class: 'tb-right' },
        this.visButton,
        this.undoButton,
        this.resignButton,
        this.leaveButton,
      ),
    );
    const dice = h(
      'div',
      { class: 'dice-box' },
      this.statusMain,
      this.diceHost,
      this.rollButton,
      this.clockBar,
      this.countdown,
      this.statusNews,
      this.awardRow,
      h('div', { class: 'row tools' }, this.pathButton),
    );
    const panel = h('aside', { class: 'panel' }, this.seatBox(1), dice, this.seatBox(2));
    const playArea = h(
      'div',
      { class: 'play-area' },
      this.boardWrap,
      panel,
      this.fx,
      this.bannerHost,
    );
    // The move log stands under the board, in the height the panel beside it leaves free; on a
    // phone held upright the board takes the whole height, so the log fills the dice panel.
    const upright = window.matchMedia(UPRIGHT_PHONE);
    const placeLog = () => (upright.matches ? dice : this.boardWrap).append(this.log);
    upright.addEventListener('change', placeLog);
    placeLog();
    this.page.append(bar, playArea, this.errorLine);
    this.page.dataset.table = id;
    setText(this.statusMain, t('table.connecting'));
  }

  private seatBox(seat: SeatNo): HTMLElement {
    const chip = h(
      'div',
      { class: 'chip' },
      pieceElement(seat),
      h('span', { class: 'seat-name', text: t(seat === 1 ? 'seat.light' : 'seat.dark') }),
      h('span', { class: 'seat-extra' }),
      h('span', { class: 'turn-mark', 'aria-hidden': 'true', text: '◀' }),
    );
    const box = h(
      'div',
      { class: `seat-box s${seat}`, 'data-seat': seat },
      chip,
      h('div', { class: 'piles' }),
    );
    this.seatBoxes.set(seat, box);
    return box;
  }

  /** Puts the board and the dice in place once the rule set is known. */
  attach(board: BoardView, dice: DiceView, cols: number, awards: boolean): void {
    this.boardWrap.prepend(board.el);
    this.page.style.setProperty('--cols', String(cols));
    this.page.classList.toggle('has-awards', awards);
    this.diceHost.replaceChildren(dice.el);
    for (const seat of [1, 2] as SeatNo[])
      this.seatBoxes
        .get(seat)!
        .querySelector('.piles')!
        .append(board.homePile(seat), board.offPile(seat));
  }

  drawBar(snap: Snapshot, spectators: number, owner: boolean, invite: string | null): void {
    setText(this.rulesName, rulesName(snap.rules, snap.rules_name));
    this.howtoLink.href = howtoHash(snap.rules);
    this.rulesId = snap.rules;
    const words = [tableStateText(snap.status)];
    if (snap.rated) words.push(t('table.rated'));
    words.push(t(snap.local ? 'table.local' : snap.public ? 'table.public' : 'table.private'));
    this.page.classList.toggle('local', !!snap.local);
    this.watchers.hidden = !!snap.local; // nobody can watch a pass-and-play table
    setText(this.statusBadge, words.join(' · '));
    this.publicBadge.hidden = !snap.public || !!snap.local;
    this.setWatchers(spectators);
    const showInvite = owner && invite !== null && snap.status === 'waiting';
    this.invite.el.hidden = !showInvite;
    if (showInvite) this.invite.input.value = inviteUrl(window.location.href, snap.id, invite!);
    this.isPublic = snap.public;
    this.visButton.hidden =
      !owner || snap.status === 'closed' || snap.status === 'finished' || !!snap.local;
    setText(this.visButton, t(snap.public ? 'table.makePrivate' : 'table.makePublic'));
    this.visButton.title = t(snap.public ? 'table.privateTitle' : 'table.publicLinkTitle');
  }

  setWatchers(n: number): void {
    setText(this.watchers, t('table.watching', { count: n }));
  }

  drawSeats(snap: Snapshot, you: SeatNo | null): void {
    for (const seat of [1, 2] as SeatNo[]) {
      const box = this.seatBoxes.get(seat)!;
      const info = snap.seats.find((x) => x.seat === seat);
      const name = info && info.kind !== 'empty' ? seatName(snap.seats, seat) : t('table.openSeat');
      // "You" first: it survives a cut name. The name is one unbreakable piece (a narrow panel
      // puts it on a line of its own, whole or cut with an ellipsis, never split mid-word).
      const nameEl = box.querySelector('.seat-name')!;
      // <bdi>: a name in another script keeps its own direction (and its brackets their places).
      const words = info?.kind === 'bot' ? 'nm words' : 'nm'; // the computer's, from the catalog
      const whole = h('bdi', {
        class: words,
        text: seat === you ? `(${name})` : name,
        title: info?.kind === 'bot' ? null : name, // a cut name, whole
      });
      if (seat === you) nameEl.replaceChildren(`${t('table.youPrefix')} `, whole);
      else nameEl.replaceChildren(whole);
      const extra: string[] = [];
      // After a rated game, the rating it produced (the seat keeps the one it sat down with).
      const after = snap.summary?.seats.find((x) => x.seat === seat)?.rating_after;
      if (after !== undefined) extra.push(String(after));
      else if (info?.rating !== undefined) extra.push(String(info.rating));
      if (info?.kind === 'guest' && seat !== you) extra.push(t('table.guest')); // yours: the name says it
      if (info?.left) extra.push(t('table.left'));
      // Pass and play: two names of one player, without its rating or "guest".
      setText(box.querySelector('.seat-extra')!, snap.local ? '' : extra.join(' · '));
      box.classList.toggle('to-act', snap.status === 'playing' && snap.game.to_act === seat);
      box.classList.toggle('me', seat === you);
    }
  }

  /** Shows the post-game banner once per finished game (until the player closes it). */
  drawBanner(snap: Snapshot, you: SeatNo | null): void {
    if (snap.status !== 'finished' || !snap.summary) {
      clear(this.bannerHost);
      return;
    }
    // A rematch offered (or declined) shows the banner again, even after "Show board".
    const rematch = JSON.stringify(snap.rematch ?? null);
    if (rematch !== this.bannerRematch) this.bannerClosed = false;
    this.bannerRematch = rematch;
    if (this.bannerShownFor === snap.version || this.bannerClosed) return;
    this.bannerShownFor = snap.version;
    const banner = buildBanner(
      snap,
      you,
      () => {
        this.bannerClosed = true;
        clear(this.bannerHost);
      },
      this.afterGame(snap),
    );
    this.bannerHost.replaceChildren(banner);
  }

  /** The boxed game's award choice: one button per offered decision (none hides the row). */
  drawAwards(moves: LegalMove[], onPick: (m: LegalMove) => void): void {
    this.awardRow.replaceChildren(
      ...moves.map((m) => {
        const yes = m.kind === 'award_yes';
        const b = h('button', {
          type: 'button',
          class: yes ? 'primary' : '',
          'data-action': m.kind,
          text: t(yes ? 'table.enterCounter' : 'table.declineAward'),
        });
        onClick(b, () => onPick(m));
        return b;
      }),
    );
  }

  /** The table's state as data attributes: what the browser tests (and CSS) read. */
  setData(snap: Snapshot, you: SeatNo | null): void {
    const g = snap.game;
    Object.assign(this.page.dataset, {
      version: String(snap.version),
      status: snap.status,
      phase: g.phase,
      toAct: g.to_act ? String(g.to_act) : '',
      you: you ? String(you) : '',
      position: g.position,
      role: you ? 'player' : 'spectator',
    });
  }

  /** The prompt; `seat` colours it by the side to act (pass and play). */
  setStatus(text: string, yours = false, seat: SeatNo | null = null): void {
    setText(this.statusMain, text);
    this.statusMain.classList.toggle('yours', yours);
    this.statusMain.classList.toggle('s1', seat === 1);
    this.statusMain.classList.toggle('s2', seat === 2);
  }

  news(text: string, tone: string): void {
    setText(this.statusNews, text);
    this.statusNews.dataset.tone = tone;
  }

  clearLog(): void {
    clear(this.log);
  }

  logLine(text: string, tone: string): void {
    this.log.prepend(h('li', { class: tone, text }));
    while (this.log.children.length > 60) this.log.lastElementChild?.remove();
  }

  setError(text: string): void {
    setText(this.errorLine, text);
  }

  /**
   * The idle clock, on every turn: a bar (`frac` of the time left) and the seconds. `secs` null
   * hides both (their lines keep their space). It turns red in the viewer's last 10 seconds.
   */
  setCountdown(
    secs: number | null,
    frac: number,
    seat: SeatNo | null,
    you: SeatNo | null,
    snap: Snapshot | null,
  ): void {
    const shown = secs !== null && seat !== null && !!snap;
    setShown(this.countdown, shown);
    setShown(this.clockBar, shown);
    if (!shown) return;
    // One line whatever the name's length: the name comes last, where an ellipsis may cut it.
    const text =
      seat === you
        ? t('table.youHave', { secs })
        : t('table.leftFor', { secs, name: seatName(snap.seats, seat) });
    setText(this.countdown, text);
    const urgent = seat === you && secs <= 10;
    this.countdown.classList.toggle('urgent', urgent);
    this.clockBar.classList.toggle('urgent', urgent);
    this.clockBar.classList.toggle('s1', seat === 1);
    this.clockBar.classList.toggle('s2', seat === 2);
    this.clockFill.style.width = `${Math.round(frac * 1000) / 10}%`;
  }

  /** The table cannot be shown: say what happened and what to do, not a broken board. */
  failed(text: string, help = t('table.failedHelp')): void {
    this.page.classList.remove('loading');
    this.page.classList.add('failed');
    this.setStatus(text);
    this.setError(text);
    this.page.querySelector('.failed-help')?.remove();
    this.errorLine.after(
      h(
        'div',
        { class: 'card failed-help' },
        h('p', { text: help }),
        h('a', { class: 'button primary', href: '#/lobby', text: t('table.playFromLobby') }),
      ),
    );
  }

  loaded(): void {
    this.page.classList.remove('loading', 'failed');
    this.page.querySelector('.failed-help')?.remove();
    this.setError('');
  }
}
