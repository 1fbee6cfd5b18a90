// Sounds made here, not downloaded: short tones synthesised with WebAudio for a throw, a move, a
// capture, a rosette, "your turn", the clock's warning and a found match. The audio context is
// only created after a user gesture (the browser's autoplay policy would warn otherwise), and
// nothing plays while the sound setting is off.

import { settings } from './settings.ts';

export type Cue = 'throw' | 'move' | 'capture' | 'rosette' | 'turn' | 'warn' | 'match';

// Each cue: notes as [frequency Hz, start s, length s], and the wave shape.
const CUES: Record<Cue, { wave: OscillatorType; notes: [number, number, number][] }> = {
  throw: {
    wave: 'triangle',
    notes: [
      [220, 0, 0.04],
      [260, 0.06, 0.04],
      [200, 0.12, 0.05],
    ],
  },
  move: { wave: 'sine', notes: [[520, 0, 0.08]] },
  capture: {
    wave: 'square',
    notes: [
      [180, 0, 0.09],
      [120, 0.1, 0.14],
    ],
  },
  rosette: {
    wave: 'sine',
    notes: [
      [660, 0, 0.1],
      [880, 0.1, 0.16],
    ],
  },
  turn: {
    wave: 'sine',
    notes: [
      [740, 0, 0.09],
      [990, 0.1, 0.12],
    ],
  },
  warn: {
    wave: 'square',
    notes: [
      [880, 0, 0.12],
      [880, 0.2, 0.12],
    ],
  },
  match: {
    wave: 'sine',
    notes: [
      [523, 0, 0.1],
      [659, 0.1, 0.1],
      [784, 0.2, 0.18],
    ],
  },
};

let ctx: AudioContext | null = null;
let preparing = false;

const activated = () =>
  (navigator as { userActivation?: { hasBeenActive: boolean } }).userActivation?.hasBeenActive ??
  false;

/**
 * Creates the audio context once the page has had a tap or a key press, in idle time: creating
 * it takes ~130 ms in Chromium, which inside the tap itself would delay its answer.
 */
function prepare(): void {
  if (ctx || preparing || !settings().sound || typeof AudioContext === 'undefined') return;
  if (!activated()) return;
  preparing = true;
  const make = () => {
    ctx = new AudioContext();
    preparing = false;
  };
  if (typeof requestIdleCallback === 'function') requestIdleCallback(make, { timeout: 2000 });
  else window.setTimeout(make, 300);
}

/** Call once at start: after the first tap or key press, audio is made ready in idle time. */
export function unlockAudioOnGesture(): void {
  const unlock = () => {
    window.removeEventListener('pointerup', unlock);
    window.removeEventListener('keyup', unlock);
    prepare();
  };
  window.addEventListener('pointerup', unlock);
  window.addEventListener('keyup', unlock);
}

export function play(cue: Cue): void {
  if (!settings().sound) return;
  if (!ctx) return prepare(); // this cue is skipped; the next one sounds
  if (ctx.state !== 'running') return;
  const { wave, notes } = CUES[cue];
  const t0 = ctx.currentTime + 0.01;
  for (const [freq, at, len] of notes) {
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.type = wave;
    osc.frequency.value = freq;
    // A quick attack and decay: a soft click instead of a hard edge.
    gain.gain.setValueAtTime(0.0001, t0 + at);
    gain.gain.exponentialRampToValueAtTime(0.18, t0 + at + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.0001, t0 + at + len);
    osc.connect(gain).connect(ctx.destination);
    osc.start(t0 + at);
    osc.stop(t0 + at + len + 0.02);
  }
}

/** A short buzz where the device can (phones); silently nothing elsewhere. */
export function vibrate(pattern: number[]): void {
  // Chrome refuses (with a console notice) before the first tap on the page: ask only after one.
  const active = (navigator as { userActivation?: { hasBeenActive: boolean } }).userActivation;
  if (!settings().sound || typeof navigator.vibrate !== 'function' || !active?.hasBeenActive)
    return;
  navigator.vibrate(pattern);
}
