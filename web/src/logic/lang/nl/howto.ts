import type { Part } from '../entry.ts';
import type { howto as en } from '../en/howto.ts';

export const howto: Part<typeof en> = {
  'howto.title': 'Zo speel je',
  'howto.titleOf': 'Zo speel je — {name}',
  'howto.loading': 'Laden…',
  'howto.ruleSets': 'Regelsets',
  'howto.others': 'Andere spelregels:',
  'howto.lightPath': 'Pad van licht (roze)',
  'howto.darkPath': 'Pad van donker (blauw)',
  'howto.play': 'Spelen',
  'howto.failed': 'Kon deze regels niet laden: {why}',
  'howto.goal': 'Het doel',
  'howto.goalLine': {
    one: 'Elke speler heeft {count} speelstuk dat wacht op een startstapel. Gooi de dobbelstenen, breng de speelstukken op het bord, loop ermee langs je pad en speel ze aan het andere eind uit. Wie als eerste alle speelstukken uitspeelt, wint.',
    other:
      'Elke speler heeft {count} speelstukken die wachten op een startstapel. Gooi de dobbelstenen, breng de speelstukken op het bord, loop ermee langs je pad en speel ze aan het andere eind uit. Wie als eerste alle speelstukken uitspeelt, wint.',
  },
  'howto.turn':
    'Als het jouw beurt is: druk op „{throw}” en tik dan op een oplichtend speelstuk of zijn gemarkeerde doelveld.',
  'howto.path': 'Het pad',
  'howto.pathLine':
    'Elke kant loopt zijn eigen pad van {count} velden: licht (roze) van {lightFrom} tot {lightTo}, donker (blauw) van {darkFrom} tot {darkTo}. „{show}” nummert het op het bord.',
  'howto.shared': {
    one: 'Het veld dat beide paden delen ({list}) is waar speelstukken elkaar treffen: wie daar op een los speelstuk van de tegenstander landt, stuurt het terug naar zijn startstapel.',
    other:
      'De {count} velden die beide paden delen ({list}) zijn waar speelstukken elkaar treffen: wie daar op een los speelstuk van de tegenstander landt, stuurt het terug naar zijn startstapel.',
  },
  'howto.apart': 'De paden komen elkaar nooit tegen.',
  'howto.bearOff':
    'Een speelstuk wordt uitgespeeld door precies één veld voorbij het eind van het pad te zetten.',
  'howto.dice': 'De dobbelstenen',
  'howto.diceLine': {
    one: '{count} vierzijdige dobbelsteen; hij toont een gemarkeerde (witte) punt of niet, en de gemarkeerde punten tellen.',
    other:
      '{count} vierzijdige dobbelstenen; elk toont een gemarkeerde (witte) punt of niet, en de gemarkeerde punten tellen.',
  },
  'howto.tips': {
    one: '{count} gemarkeerde punt: {move} zetten',
    other: '{count} gemarkeerde punten: {move} zetten',
  },
  'howto.passes': '{row}, geen zet, de beurt gaat over',
  'howto.again': '{row}, en nog eens gooien',
  'howto.noLegal': 'Een worp zonder geldige zet geeft de beurt door.',
  'howto.rosettes': 'Rozetten',
  'howto.rosetteList': { one: 'De rozet ✸ is {list}.', other: 'De rozetten ✸ zijn {list}.' },
  'howto.rosetteAgain': 'Wie op een rozet landt, mag nog eens gooien.',
  'howto.safeAll': 'Een speelstuk op een rozet is veilig: het kan niet worden geslagen.',
  'howto.safeSome': 'Een speelstuk is veilig op {list}; elders kan het worden geslagen.',
  'howto.safeNone': 'Rozetten beschermen een speelstuk niet: het kan daar worden geslagen.',
  'howto.special': 'Bijzondere regels',
  'howto.staging': 'Speelstukken gaan eerst naar een startplek S en komen van daaruit op het pad.',
  'howto.stacking': 'Speelstukken van één kant mogen op een veld stapelen en samen zetten.',
  'howto.double': '{cell} verdubbelt de zet die daar landt.',
  'howto.forfeit': 'Wie op {cell} landt, laat de tegenstander een speelstuk 4 velden zetten.',
  'howto.award': 'Wie op {cell} landt, mag een speelstuk op S inbrengen.',
  'howto.scored':
    'De winst wordt geteld: de winnaar telt de overgebleven speelstukken van de verliezer.',
  'howto.stake': 'Elke partij wordt gespeeld om een inzet van {n}.',
};
