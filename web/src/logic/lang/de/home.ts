import type { Part } from '../entry.ts';
import type { home as en } from '../en/home.ts';

export const home: Part<typeof en> = {
  'home.title': 'Das Königliche Spiel von Ur',
  'home.tagline':
    'Ein 4.500 Jahre altes Wettrennen zu zweit: würfle, zieh deine Spielsteine über das Spielbrett und spiel sie als Erster hinaus.',
  'home.play': 'Spielen',
  'home.playHint': 'Gegen den Computer, nach den üblichen Regeln (Finkel).',
  'home.guest':
    'Du spielst als Gast. {link}, um deine Partien zu behalten und eine Wertung zu bekommen.',
  'home.noAccount':
    'Kein Konto nötig: du spielst als Gast. {link}, um deine Partien zu behalten und eine Wertung zu bekommen.',
  'home.register': 'Registriere dich',
  'home.presetsFailed': 'Die Regelwerke konnten nicht geladen werden: {why}',
  'home.howto': 'So wird gespielt',
  'home.fullRules': '(alle Regeln)',
  'home.howto1':
    'Bring alle deine Spielsteine vom Startstapel aufs Spielbrett, deinen Laufweg entlang (deine Reihe, die gemeinsame Mittelreihe, zurück in deine Reihe) und am anderen Ende hinaus. Wer zuerst alle Spielsteine hinausspielt, gewinnt.',
  'home.howto2':
    'Drück „Würfle“: Die markierten Spitzen zeigen, wie viele Felder du ziehst. Tippe dann auf einen leuchtenden Spielstein oder sein markiertes Zielfeld (oder drück seine Zifferntaste).',
  'home.howto3':
    'Wer auf einer Rosette ✸ landet, würfelt noch einmal, und ein Spielstein dort ist sicher. Wer in der gemeinsamen Reihe auf einem einzelnen gegnerischen Spielstein landet, schlägt ihn zurück zum Start.',
  'home.howto4':
    'Bei einem Wurf ohne erlaubten Zug ist der andere dran. Gegen einen Menschen zeigt die Uhr unter den Würfeln, wie lange du noch Zeit hast.',
  'daily.title': 'Rätsel des Tages',
  'daily.line':
    '{rules} · Wertung {rating}: finde den besten Zug, bewiesen durch eine gelöste Tabelle.',
  'daily.solve': 'Lösen',
  'daily.more': 'Weitere Rätsel',
  'ruleset.finkel': 'Finkel',
  'ruleset.finkel6': 'Finkel, 6 Steine',
  'ruleset.conventional': 'Konventionell (Regency)',
  'ruleset.murray': 'Murray (Regency)',
  'ruleset.murray-royalur': 'Murray (RoyalUr-Laufweg)',
  'ruleset.british-museum': 'British Museum (Regency)',
  'ruleset.bell': 'R. C. Bell (Regency)',
  'ruleset.boxed': 'Spielschachtel (Prämien, Strafen, Punkte)',
  'ruleset.masters': 'Masters',
  'ruleset.blitz': 'Blitz',
  'ruleset.aseb': 'Aseb',
  'plain.finkel':
    'Die heute üblichen Regeln: je 7 Spielsteine, vier Würfel, Rosetten sind sicher und geben einen weiteren Wurf.',
  'plain.finkel6': 'Die üblichen Regeln mit je 6 Spielsteinen; die helle Seite beginnt immer.',
  'plain.conventional': 'Eine ältere Deutung: drei Würfel, ein Wurf ohne Markierung zieht 4.',
  'plain.murray':
    'Ein längeres Rennen: die Spielsteine laufen einmal ganz um das Spielbrett, bevor sie es verlassen.',
  'plain.murray-royalur': 'Das lange Rundrennen, dessen Rückweg die Reihe des Gegners kreuzt.',
  'plain.british-museum':
    'Die vom British Museum gedruckten Regeln, mit eigener Art, Spielsteine einzusetzen.',
  'plain.bell': 'Die Regeln von R. C. Bell: bei manchen Würfen würfelst du noch einmal.',
  'plain.boxed':
    'Eine Ausgabe in der Spielschachtel mit Prämien, Strafen und Punkten: für alle, die die Grundlagen kennen.',
  'plain.masters':
    'Ein längerer Laufweg, auf dem Rosetten einen weiteren Wurf geben, einen Spielstein aber nicht schützen.',
  'plain.blitz':
    'Eine schnelle Partie: je 5 Spielsteine, und auch Schlagen gibt einen weiteren Wurf.',
  'plain.aseb':
    'Das ägyptische Spielbrett: eine lange Mittelreihe aus zwölf Feldern, je 5 Spielsteine.',
};
