// Log in, register, or play as a guest. A guest gets a stable identity from POST /api/guest (a
// cookie), so that a dropped connection finds its seat again.

import { api } from '../net/api.ts';
import { t } from '../logic/i18n.ts';
import type { Route } from '../logic/route.ts';
import { errorText, type App, type View } from './app.ts';
import { h, onClick } from './dom.ts';

/** `name` is the form's data-form, the same in every language (the browser tests find it). */
function credentialsForm(
  name: string,
  title: string,
  submitLabel: string,
  autocomplete: string,
  submit: (user: string, pass: string) => Promise<void>,
): HTMLFormElement {
  const user = h('input', {
    name: 'username',
    required: true,
    minlength: 3,
    maxlength: 20,
    pattern: '[A-Za-z0-9_\\-]{3,20}',
    autocomplete: 'username',
    title: t('login.usernameRule'),
  });
  const pass = h('input', {
    name: 'password',
    type: 'password',
    required: true,
    minlength: 8,
    maxlength: 128,
    autocomplete,
  });
  const error = h('p', { class: 'form-error', role: 'alert' });
  const button = h('button', { type: 'submit', class: 'primary', text: submitLabel });
  const form = h(
    'form',
    { class: 'card auth-form', 'data-form': name },
    h('h2', { text: title }),
    h('label', {}, t('login.username'), user),
    h('label', {}, t('login.password'), pass),
    button,
    error,
  );
  // A new attempt clears the last one's words, also when the browser's own checks stop it.
  const forget = () => (error.textContent = '');
  form.addEventListener('input', forget);
  form.addEventListener('invalid', forget, true);
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    error.textContent = '';
    button.disabled = true;
    try {
      await submit(user.value.trim(), pass.value);
    } catch (err) {
      error.textContent = errorText(err);
    } finally {
      button.disabled = false;
    }
  });
  return form;
}

export function mountLogin(app: App, root: HTMLElement, route: Route): View {
  const next = route.name === 'login' ? route.next : null;
  const guestError = h('p', { class: 'form-error', role: 'alert' });
  const guestButton = h('button', {
    type: 'button',
    class: 'primary',
    'data-action': 'play-guest',
    text: t('login.guest'),
  });
  onClick(guestButton, async () => {
    guestError.textContent = '';
    guestButton.disabled = true;
    try {
      const g = await api.guest();
      await app.signedIn(g.guest ? { kind: 'guest', name: g.name } : await meIdentity(), next);
    } catch (err) {
      guestError.textContent = errorText(err);
    } finally {
      guestButton.disabled = false;
    }
  });
  const login = credentialsForm(
    'log-in',
    t('nav.login'),
    t('nav.login'),
    'current-password',
    async (u, p) => {
      const { user } = await api.login(u, p);
      await app.signedIn({ kind: 'user', user }, next);
    },
  );
  const register = credentialsForm(
    'create-account',
    t('login.register'),
    t('login.create'),
    'new-password',
    async (u, p) => {
      const { user } = await api.register(u, p);
      await app.signedIn({ kind: 'user', user }, next);
    },
  );
  const guest = h(
    'div',
    { class: 'card auth-form' },
    h('h2', { text: t('login.guest') }),
    h('p', { text: t('login.guestText') }),
    guestButton,
    guestError,
  );
  const intro = h(
    'section',
    { class: 'intro' },
    h('h1', { text: t('login.gameTitle') }),
    h('p', { text: t('login.intro') }),
    next && next.startsWith('/table/') ? h('p', { class: 'note', text: t('login.toTable') }) : null,
  );
  root.append(intro, h('div', { class: 'auth-grid' }, login, register, guest));
  return { destroy() {} };
}

async function meIdentity() {
  const { user } = await api.me();
  return { kind: 'user' as const, user };
}
