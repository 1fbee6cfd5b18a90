// The player's settings, remembered in localStorage: sound (and so the mute), coordinates on the
// board, forced moves played by themselves, animation speed and high-contrast colours. They apply
// as classes on <body> (CSS does the rest) and are read by the table and the animator.

import { t, type Key } from '../logic/i18n.ts';
import { h, onClick } from './dom.ts';
import { languagePicker, onLanguage } from './language.ts';

export type Speed = 'normal' | 'fast' | 'off';
/** The colours of the page: the system's choice (prefers-color-scheme), or light or dark. */
export type Theme = 'system' | 'light' | 'dark';

export interface Settings {
  sound: boolean;
  coords: boolean;
  autoMove: boolean;
  speed: Speed;
  contrast: boolean;
  theme: Theme;
}

const KEY = 'ur.settings';
const DEFAULTS: Settings = {
  sound: true,
  coords: true, // the move log names squares: the board shows those names from the start
  autoMove: false,
  speed: 'normal',
  contrast: false,
  theme: 'system',
};

let current: Settings = load();

function load(): Settings {
  try {
    const raw = JSON.parse(localStorage.getItem(KEY) ?? '{}') as Partial<Settings>;
    return { ...DEFAULTS, ...raw };
  } catch {
    return { ...DEFAULTS }; // a broken entry is not worth an error: start from the defaults
  }
}

export function settings(): Settings {
  return current;
}

export function updateSettings(change: Partial<Settings>): void {
  current = { ...current, ...change };
  localStorage.setItem(KEY, JSON.stringify(current));
  applySettings();
}

/** Animation time scale: 1 normal, 0.5 fast, 0 none. */
export function motionScale(): number {
  return current.speed === 'fast' ? 0.5 : current.speed === 'off' ? 0 : 1;
}

const systemDark = window.matchMedia('(prefers-color-scheme: dark)');
// Following the system: a change of the system's colours while the page is open applies at once.
systemDark.addEventListener('change', () => applySettings());

export function applySettings(): void {
  const b = document.body.classList;
  b.toggle('coords', current.coords);
  b.toggle('contrast', current.contrast);
  const dark = current.theme === 'dark' || (current.theme === 'system' && systemDark.matches);
  document.documentElement.classList.toggle('dark', dark);
}

function check(label: Key, key: 'sound' | 'coords' | 'autoMove' | 'contrast'): HTMLElement {
  const box = h('input', { type: 'checkbox', name: key, checked: current[key] });
  box.addEventListener('change', () => updateSettings({ [key]: box.checked }));
  return h('label', { class: 'check' }, box, t(label));
}

/** The settings panel (a dialog opened from the header). */
export function settingsPanel(onClose: () => void): HTMLElement {
  const speed = h(
    'select',
    { name: 'speed', 'aria-label': t('settings.animations.label') },
    h('option', { value: 'normal', text: t('settings.animations.normal') }),
    h('option', { value: 'fast', text: t('settings.animations.fast') }),
    h('option', { value: 'off', text: t('settings.animations.off') }),
  );
  speed.value = current.speed;
  speed.addEventListener('change', () => updateSettings({ speed: speed.value as Speed }));
  const theme = h(
    'select',
    { name: 'theme', 'aria-label': t('settings.colours') },
    h('option', { value: 'system', text: t('settings.colours.system') }),
    h('option', { value: 'light', text: t('settings.colours.light') }),
    h('option', { value: 'dark', text: t('settings.colours.dark') }),
  );
  theme.value = current.theme;
  theme.addEventListener('change', () => updateSettings({ theme: theme.value as Theme }));
  const close = h('button', {
    type: 'button',
    'data-action': 'close-settings',
    text: t('settings.done'),
  });
  onClick(close, onClose);
  return h(
    'div',
    { class: 'settings card', role: 'dialog', 'aria-label': t('settings.title') },
    h('h2', { text: t('settings.title') }),
    check('settings.sound', 'sound'),
    check('settings.coords', 'coords'),
    check('settings.autoMove', 'autoMove'),
    check('settings.contrast', 'contrast'),
    h('label', { class: 'field' }, t('settings.colours'), theme),
    h('label', { class: 'field' }, t('settings.animations'), speed),
    languagePicker(),
    h('div', { class: 'row' }, close),
  );
}

/** Opens the settings over the page; `gear`, the button that opened them, has the focus back. */
export function openSettings(gear: HTMLElement): void {
  const host = h('div', { class: 'settings-host' });
  // A language chosen in the panel redraws it (the screen behind it redraws through route()).
  const off = onLanguage(() => host.replaceChildren(settingsPanel(close)));
  const close = () => {
    off();
    host.remove();
    gear.focus();
  };
  host.append(settingsPanel(close));
  onClick(host, (e) => e.target === host && close());
  host.addEventListener('keydown', (e) => e.key === 'Escape' && close());
  document.body.append(host);
  host.querySelector('input')?.focus();
}
