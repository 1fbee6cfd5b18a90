import type { Part } from '../entry.ts';
import type { header as en } from '../en/header.ts';

export const header: Part<typeof en> = {
  'nav.lobby': 'Lobby',
  'nav.puzzles': 'Rätsel',
  'nav.leaderboard': 'Rangliste',
  'nav.history': 'Meine Partien',
  'nav.friends': 'Freunde',
  'nav.account': 'Konto',
  'nav.login': 'Anmelden',
  'nav.logout': 'Abmelden',
  'nav.guest': '{name} (Gast)',
  'nav.games': { one: '{count} gewertete Partie', other: '{count} gewertete Partien' },
  'nav.wins': { one: '{count} Sieg', other: '{count} Siege' },
  'nav.record': '{games}, {wins}',
  'app.reconnecting': 'Verbindung verloren — neu verbinden…',
  'app.loadFailed': 'Diese Seite konnte nicht geladen werden.',
  'app.reload': 'Seite neu laden',
  'app.loading': 'Wird geladen…',
  'notFound.title': 'Hier ist nichts',
  'notFound.text': 'Diese Adresse führt zu keiner Seite des Spiels.',
  'notFound.lobby': 'Zur Lobby',
  'leaderboard.player': 'Spieler',
  'leaderboard.elo': 'Elo',
  'leaderboard.games': 'Partien',
  'leaderboard.wins': 'Siege',
  'leaderboard.empty': 'Noch niemand hat eine gewertete Partie gespielt.',
  'leaderboard.failed': 'Die Rangliste konnte nicht geladen werden: {error}',
  'login.gameTitle': 'Das Königliche Spiel von Ur',
  'login.intro':
    'Ein 4.500 Jahre altes Laufspiel für zwei. Bring alle deine Spielsteine aufs Spielbrett, durch die gemeinsame mittlere Reihe und auf der anderen Seite hinaus. Wer zuerst alle Spielsteine hinausgespielt hat, gewinnt.',
  'login.toTable':
    'Melde dich an, registriere dich oder spiel als Gast, um an den Tisch zu kommen.',
  'login.username': 'Benutzername',
  'login.usernameRule': '3–20 Buchstaben, Ziffern, _ oder -',
  'login.password': 'Passwort',
  'login.register': 'Registrieren',
  'login.create': 'Konto anlegen',
  'login.guest': 'Als Gast spielen',
  'login.guestText':
    'Kein Konto nötig. Gäste spielen ungewertete Partien und stehen nicht in der Rangliste.',
};
