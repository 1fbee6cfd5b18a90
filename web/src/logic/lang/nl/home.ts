import type { Part } from '../entry.ts';
import type { home as en } from '../en/home.ts';

export const home: Part<typeof en> = {
  'home.title': 'Het Koninklijk Spel van Ur',
  'home.tagline':
    'Een 4500 jaar oude race voor twee: gooi de dobbelstenen, loop met je speelstukken over het speelbord en speel ze als eerste uit.',
  'home.play': 'Spelen',
  'home.playHint': 'Tegen de computer, met de gewone regels (Finkel).',
  'home.guest': 'Je speelt als gast. {link} om je partijen te bewaren en een rating te krijgen.',
  'home.noAccount':
    'Geen account nodig: je speelt als gast. {link} om je partijen te bewaren en een rating te krijgen.',
  'home.register': 'Registreer je',
  'home.presetsFailed': 'De spelregels konden niet worden geladen: {why}',
  'home.howto': 'Zo speel je',
  'home.fullRules': '(alle regels)',
  'home.howto1':
    'Breng al je speelstukken van de startstapel op het speelbord, langs je pad (je eigen rij, de gedeelde middenrij, terug naar je rij) en aan het andere eind eraf. Wie als eerste alle speelstukken uitspeelt, wint.',
  'home.howto2':
    'Druk op „Gooi de dobbelstenen”: de gemarkeerde punten geven aan hoeveel velden je zet. Tik dan op een oplichtend speelstuk of zijn gemarkeerde doelveld (of druk op zijn cijfertoets).',
  'home.howto3':
    'Wie op een rozet ✸ landt, mag nog eens gooien, en een speelstuk daar is veilig. Wie in de gedeelde rij op een los speelstuk van de tegenstander landt, slaat het terug naar de start.',
  'home.howto4':
    'Een worp zonder geldige zet geeft de beurt door. Tegen een mens toont de klok onder de dobbelstenen hoeveel tijd je nog hebt.',
  'daily.title': 'Puzzel van de dag',
  'daily.line': '{rules} · rating {rating}: vind de beste zet, bewezen door een opgeloste tabel.',
  'daily.solve': 'Oplossen',
  'daily.more': 'Meer puzzels',
  'ruleset.finkel': 'Finkel',
  'ruleset.finkel6': 'Finkel, 6 stenen',
  'ruleset.conventional': 'Conventioneel (Regency)',
  'ruleset.murray': 'Murray (Regency)',
  'ruleset.murray-royalur': 'Murray (RoyalUr-pad)',
  'ruleset.british-museum': 'British Museum (Regency)',
  'ruleset.bell': 'R. C. Bell (Regency)',
  'ruleset.boxed': 'Spel in doos (premies, straffen, punten)',
  'ruleset.masters': 'Masters',
  'ruleset.blitz': 'Blitz',
  'ruleset.aseb': 'Aseb',
  'plain.finkel':
    'De gebruikelijke regels van nu: 7 speelstukken elk, vier dobbelstenen, rozetten zijn veilig en geven een extra worp.',
  'plain.finkel6': 'De gebruikelijke regels met 6 speelstukken elk; licht begint altijd.',
  'plain.conventional': 'Een oudere lezing: drie dobbelstenen, een worp zonder markering zet 4.',
  'plain.murray': 'Een langere race: speelstukken gaan het hele bord rond voordat ze het verlaten.',
  'plain.murray-royalur':
    'De lange rondgang, waarbij de terugweg de rij van de tegenstander kruist.',
  'plain.british-museum':
    'De regels die het British Museum drukte, met een eigen manier om speelstukken in te brengen.',
  'plain.bell': 'De regels van R. C. Bell: bij sommige worpen gooi je nog eens.',
  'plain.boxed': 'Een uitgave in doos met premies, straffen en punten: voor wie de basis al kent.',
  'plain.masters':
    'Een langer pad waarop rozetten een extra worp geven maar een speelstuk niet beschermen.',
  'plain.blitz': 'Een snel spel: 5 speelstukken elk, en ook slaan geeft een extra worp.',
  'plain.aseb': 'Het Egyptische bord: een lange middenrij van twaalf velden, 5 speelstukken elk.',
};
