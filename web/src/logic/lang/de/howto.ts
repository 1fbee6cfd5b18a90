import type { Part } from '../entry.ts';
import type { howto as en } from '../en/howto.ts';

export const howto: Part<typeof en> = {
  'howto.title': 'So wird gespielt',
  'howto.titleOf': 'So wird gespielt — {name}',
  'howto.loading': 'Wird geladen…',
  'howto.ruleSets': 'Regelwerke',
  'howto.others': 'Andere Regelwerke:',
  'howto.lightPath': 'Laufweg von Hell (rosa)',
  'howto.darkPath': 'Laufweg von Dunkel (blau)',
  'howto.play': 'Spielen',
  'howto.failed': 'Diese Regeln konnten nicht geladen werden: {why}',
  'howto.goal': 'Das Ziel',
  'howto.goalLine': {
    one: 'Jeder Spieler hat {count} Spielstein, der auf dem Startstapel wartet. Würfle, bring die Spielsteine aufs Spielbrett, zieh sie deinen Laufweg entlang und spiel sie am anderen Ende hinaus. Wer zuerst alle Spielsteine hinausspielt, gewinnt.',
    other:
      'Jeder Spieler hat {count} Spielsteine, die auf dem Startstapel warten. Würfle, bring die Spielsteine aufs Spielbrett, zieh sie deinen Laufweg entlang und spiel sie am anderen Ende hinaus. Wer zuerst alle Spielsteine hinausspielt, gewinnt.',
  },
  'howto.turn':
    'Wenn du am Zug bist: drück „{throw}“, dann tippe auf einen leuchtenden Spielstein oder sein markiertes Zielfeld.',
  'howto.path': 'Der Laufweg',
  'howto.pathLine':
    'Jede Seite hat ihren eigenen Laufweg von {count} Feldern: Hell (rosa) von {lightFrom} bis {lightTo}, Dunkel (blau) von {darkFrom} bis {darkTo}. „{show}“ nummeriert ihn auf dem Spielbrett.',
  'howto.shared': {
    one: 'Das Feld, das beide Laufwege teilen ({list}), ist der Ort, wo Spielsteine sich begegnen: wer dort auf einem einzelnen gegnerischen Spielstein landet, schlägt ihn zurück auf seinen Startstapel.',
    other:
      'Die {count} Felder, die beide Laufwege teilen ({list}), sind der Ort, wo Spielsteine sich begegnen: wer dort auf einem einzelnen gegnerischen Spielstein landet, schlägt ihn zurück auf seinen Startstapel.',
  },
  'howto.apart': 'Die Laufwege begegnen sich nie.',
  'howto.bearOff':
    'Ein Spielstein wird hinausgespielt, indem er genau ein Feld über das Ende des Laufwegs hinaus zieht.',
  'howto.dice': 'Die Würfel',
  'howto.diceLine': {
    one: '{count} vierseitiger Würfel; er zeigt eine markierte (weiße) Spitze oder nicht, und die markierten Spitzen zählen.',
    other:
      '{count} vierseitige Würfel; jeder zeigt eine markierte (weiße) Spitze oder nicht, und die markierten Spitzen zählen.',
  },
  'howto.tips': {
    one: '{count} markierte Spitze: {move} ziehen',
    other: '{count} markierte Spitzen: {move} ziehen',
  },
  'howto.passes': '{row}, kein Zug, der andere ist dran',
  'howto.again': '{row}, und noch einmal würfeln',
  'howto.noLegal': 'Bei einem Wurf ohne erlaubten Zug ist der andere dran.',
  'howto.rosettes': 'Rosetten',
  'howto.rosetteList': { one: 'Die Rosette ✸ ist {list}.', other: 'Die Rosetten ✸ sind {list}.' },
  'howto.rosetteAgain': 'Wer auf einer Rosette landet, würfelt noch einmal.',
  'howto.safeAll': 'Ein Spielstein auf einer Rosette ist sicher: er kann nicht geschlagen werden.',
  'howto.safeSome': 'Ein Spielstein ist sicher auf {list}; anderswo kann er geschlagen werden.',
  'howto.safeNone': 'Rosetten schützen keinen Spielstein: er kann dort geschlagen werden.',
  'howto.special': 'Besondere Regeln',
  'howto.staging':
    'Spielsteine kommen zuerst auf ein Startfeld S und betreten von dort den Laufweg.',
  'howto.stacking':
    'Spielsteine einer Seite dürfen sich auf einem Feld stapeln und gemeinsam ziehen.',
  'howto.double': '{cell} verdoppelt den Zug, der dort landet.',
  'howto.forfeit': 'Wer auf {cell} landet, zwingt den Gegner, einen Spielstein 4 Felder zu ziehen.',
  'howto.award': 'Wer auf {cell} landet, darf einen Spielstein auf S einsetzen.',
  'howto.scored':
    'Der Sieg wird gezählt: der Gewinner zählt die übrigen Spielsteine des Verlierers.',
  'howto.stake': 'Jede Partie wird um einen Einsatz von {n} gespielt.',
};
