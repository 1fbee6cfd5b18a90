// A button that asks before it acts: the first click turns its label into the question, a second
// click within 4 s confirms, and otherwise the label comes back. Used by Resign and Leave.

const CONFIRM_MS = 4000;

export class ConfirmButton {
  private timer = 0;
  private label = '';

  /** `restored` runs when the question goes away, so the owner can redraw the label. */
  constructor(
    private readonly button: HTMLButtonElement,
    private readonly question: string,
    private readonly restored: () => void,
  ) {}

  /** True while the button shows its question. */
  get asking(): boolean {
    return this.button.dataset.confirm === '1';
  }

  click(then: () => void): void {
    window.clearTimeout(this.timer);
    if (this.asking) {
      this.button.dataset.confirm = '';
      this.restored();
      then();
      return;
    }
    this.label = this.button.textContent ?? '';
    this.button.dataset.confirm = '1';
    this.button.textContent = this.question;
    this.timer = window.setTimeout(() => {
      this.button.dataset.confirm = '';
      this.button.textContent = this.label;
      this.restored();
    }, CONFIRM_MS);
  }

  cancel(): void {
    window.clearTimeout(this.timer);
  }
}
