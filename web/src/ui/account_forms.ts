// The parts the account and admin pages share: a form whose submit runs one request, its button
// disabled meanwhile and its outcome said under it, in words the server chose or ours.

import { t } from '../logic/i18n.ts';
import { errorText } from './app.ts';
import { h, type Child } from './dom.ts';

/** A labelled input of a form. */
export function field(
  label: string,
  attrs: Record<string, string | number | boolean>,
): [HTMLLabelElement, HTMLInputElement] {
  const input = h('input', attrs);
  return [h('label', {}, label, input), input];
}

/**
 * A card form: `run` is called on submit and returns the words to say when it succeeded; an
 * error's words are said instead (role=alert).
 */
export function actionForm(
  name: string,
  title: string,
  submitLabel: string,
  children: Child[],
  run: () => Promise<string>,
  buttonClass = 'primary',
): HTMLFormElement {
  const said = h('p', { class: 'form-said', role: 'status' });
  const error = h('p', { class: 'form-error', role: 'alert' });
  const button = h('button', { type: 'submit', class: buttonClass, text: submitLabel });
  const form = h(
    'form',
    { class: 'card auth-form account-form', 'data-form': name },
    h('h2', { text: title }),
    ...children,
    button,
    said,
    error,
  );
  form.addEventListener('input', () => (error.textContent = ''));
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    error.textContent = said.textContent = '';
    button.disabled = true;
    try {
      said.textContent = await run();
    } catch (err) {
      error.textContent = errorText(err);
    } finally {
      button.disabled = false;
    }
  });
  return form;
}

/** Said instead of a page that needs an account (a guest, an expired session). */
export function loginPrompt(text: string, next: string): HTMLElement {
  return h(
    'p',
    { class: 'card', role: 'alert' },
    `${text} `,
    h('a', { href: `#/login?next=${next}`, text: t('nav.login') }),
  );
}
