import type { Part } from '../entry.ts';
import type { home as en } from '../en/home.ts';

export const home: Part<typeof en> = {
  'home.title': 'Le Jeu royal d’Ur',
  'home.tagline':
    'Une course à deux vieille de 4 500 ans : lancez les dés, faites le tour du plateau avec vos pions et sortez-les les premiers.',
  'home.play': 'Jouer',
  'home.playHint': 'Contre l’ordinateur, avec les règles habituelles (Finkel).',
  'home.guest': 'Vous jouez en invité. {link} pour garder vos parties et obtenir un classement.',
  'home.noAccount':
    'Pas besoin de compte : vous jouez en invité. {link} pour garder vos parties et obtenir un classement.',
  'home.register': 'Inscrivez-vous',
  'home.presetsFailed': 'Impossible de charger les jeux de règles : {why}',
  'home.howto': 'Comment jouer',
  'home.fullRules': '(règles complètes)',
  'home.howto1':
    'Amenez tous vos pions de la réserve sur le plateau, le long de votre parcours (votre rangée, la rangée centrale commune, puis de nouveau votre rangée), et sortez-les à l’autre bout. Le premier à sortir tous ses pions gagne.',
  'home.howto2':
    'Appuyez sur « Lancez les dés » : les pointes marquées indiquent de combien de cases vous avancez. Touchez ensuite un pion lumineux ou sa case d’arrivée marquée (ou appuyez sur sa touche numérique).',
  'home.howto3':
    'Arriver sur une rosace ✸ donne un autre lancer, et un pion y est protégé. Arriver sur un pion adverse isolé dans la rangée commune le prend et le renvoie au départ.',
  'home.howto4':
    'Un lancer sans coup possible passe le tour. Contre une personne, l’horloge sous les dés indique le temps qu’il vous reste pour jouer.',
  'daily.title': 'Problème du jour',
  'daily.line':
    '{rules} · classement {rating} : trouvez le meilleur coup, prouvé par une table résolue.',
  'daily.solve': 'Le résoudre',
  'daily.more': 'Autres problèmes',
  'ruleset.finkel': 'Finkel',
  'ruleset.finkel6': 'Finkel, 6 pions',
  'ruleset.conventional': 'Conventionnel (Regency)',
  'ruleset.murray': 'Murray (Regency)',
  'ruleset.murray-royalur': 'Murray (parcours RoyalUr)',
  'ruleset.british-museum': 'British Museum (Regency)',
  'ruleset.bell': 'R. C. Bell (Regency)',
  'ruleset.boxed': 'Jeu en boîte (primes, pénalités, score)',
  'ruleset.masters': 'Masters',
  'ruleset.blitz': 'Blitz',
  'ruleset.aseb': 'Aseb',
  'plain.finkel':
    'Les règles habituelles aujourd’hui : 7 pions chacun, quatre dés, les rosaces protègent et donnent un autre lancer.',
  'plain.finkel6': 'Les règles habituelles avec 6 pions chacun ; le camp clair commence toujours.',
  'plain.conventional':
    'Une lecture plus ancienne : trois dés, et un lancer sans marque fait avancer de 4.',
  'plain.murray': 'Une course plus longue : les pions font le tour du plateau avant de le quitter.',
  'plain.murray-royalur':
    'La longue course en boucle, dont le retour traverse la rangée de l’adversaire.',
  'plain.british-museum':
    'Les règles publiées par le British Museum, avec leur propre façon d’entrer les pions.',
  'plain.bell': 'Les règles de R. C. Bell : certains lancers permettent de relancer.',
  'plain.boxed':
    'Une édition en boîte avec primes, pénalités et score : pour ceux qui connaissent les bases.',
  'plain.masters':
    'Un parcours plus long où les rosaces donnent un autre lancer mais ne protègent pas les pions.',
  'plain.blitz': 'Une partie rapide : 5 pions chacun, et une prise donne aussi un autre lancer.',
  'plain.aseb': 'Le plateau égyptien : une longue rangée centrale de douze cases, 5 pions chacun.',
};
