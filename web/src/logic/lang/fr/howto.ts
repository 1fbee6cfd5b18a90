import type { Part } from '../entry.ts';
import type { howto as en } from '../en/howto.ts';

export const howto: Part<typeof en> = {
  'howto.title': 'Comment jouer',
  'howto.titleOf': 'Comment jouer — {name}',
  'howto.loading': 'Chargement…',
  'howto.ruleSets': 'Jeux de règles',
  'howto.others': 'Autres jeux de règles :',
  'howto.lightPath': 'Parcours du clair (rose)',
  'howto.darkPath': 'Parcours du foncé (bleu)',
  'howto.play': 'Jouer',
  'howto.failed': 'Impossible de charger ces règles : {why}',
  'howto.goal': 'Le but',
  'howto.goalLine': {
    one: 'Chaque joueur a {count} pion qui attend dans sa réserve. Lancez les dés, faites entrer les pions sur le plateau, avancez-les le long de votre parcours et sortez-les à l’autre bout. Le premier à sortir tous ses pions gagne.',
    other:
      'Chaque joueur a {count} pions qui attendent dans sa réserve. Lancez les dés, faites entrer les pions sur le plateau, avancez-les le long de votre parcours et sortez-les à l’autre bout. Le premier à sortir tous ses pions gagne.',
  },
  'howto.turn':
    'À votre tour : appuyez sur « {throw} », puis touchez un pion lumineux ou sa case d’arrivée marquée.',
  'howto.path': 'Le parcours',
  'howto.pathLine':
    'Chaque camp suit son propre parcours de {count} cases : le clair (rose) de {lightFrom} à {lightTo}, le foncé (bleu) de {darkFrom} à {darkTo}. « {show} » le numérote sur le plateau.',
  'howto.shared': {
    one: 'La case que partagent les deux parcours ({list}) est l’endroit où les pions se rencontrent : arriver sur un pion adverse isolé le prend et le renvoie dans sa réserve.',
    other:
      'Les {count} cases que partagent les deux parcours ({list}) sont l’endroit où les pions se rencontrent : arriver sur un pion adverse isolé le prend et le renvoie dans sa réserve.',
  },
  'howto.apart': 'Les parcours ne se croisent jamais.',
  'howto.bearOff': 'Un pion sort en avançant exactement d’une case au-delà de la fin du parcours.',
  'howto.dice': 'Les dés',
  'howto.diceLine': {
    one: '{count} dé à quatre faces ; il montre une pointe marquée (blanche) ou non, et les pointes marquées comptent.',
    other:
      '{count} dés à quatre faces ; chacun montre une pointe marquée (blanche) ou non, et les pointes marquées comptent.',
  },
  'howto.tips': {
    one: '{count} pointe marquée : avancer de {move}',
    other: '{count} pointes marquées : avancer de {move}',
  },
  'howto.passes': '{row}, aucun coup, le tour passe',
  'howto.again': '{row}, et relancer',
  'howto.noLegal': 'Un lancer sans coup possible passe le tour.',
  'howto.rosettes': 'Rosaces',
  'howto.rosetteList': { one: 'La rosace ✸ est {list}.', other: 'Les rosaces ✸ sont {list}.' },
  'howto.rosetteAgain': 'Arriver sur une rosace donne un autre lancer.',
  'howto.safeAll': 'Un pion sur une rosace est protégé : il ne peut pas être pris.',
  'howto.safeSome': 'Un pion est protégé sur {list} ; ailleurs il peut être pris.',
  'howto.safeNone': 'Les rosaces ne protègent pas les pions : ils peuvent y être pris.',
  'howto.special': 'Règles spéciales',
  'howto.staging':
    'Les pions vont d’abord sur une case de départ S, et entrent sur le parcours depuis là.',
  'howto.stacking': 'Les pions d’un camp peuvent s’empiler sur une case et avancer ensemble.',
  'howto.double': '{cell} double le coup qui y arrive.',
  'howto.forfeit': 'Arriver sur {cell} oblige l’adversaire à avancer un pion de 4 cases.',
  'howto.award': 'Arriver sur {cell} permet de faire entrer un pion sur S.',
  'howto.scored': 'La victoire se compte : le gagnant compte les pions restants du perdant.',
  'howto.stake': 'Chaque partie se joue pour un enjeu de {n}.',
};
