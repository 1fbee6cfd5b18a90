import type { Part } from '../entry.ts';
import type { howto as en } from '../en/howto.ts';

export const howto: Part<typeof en> = {
  'howto.title': 'Cómo se juega',
  'howto.titleOf': 'Cómo se juega — {name}',
  'howto.loading': 'Cargando…',
  'howto.ruleSets': 'Reglamentos',
  'howto.others': 'Otros reglamentos:',
  'howto.lightPath': 'Recorrido del claro (rosa)',
  'howto.darkPath': 'Recorrido del oscuro (azul)',
  'howto.play': 'Jugar',
  'howto.failed': 'No se pudieron cargar estas reglas: {why}',
  'howto.goal': 'El objetivo',
  'howto.goalLine': {
    one: 'Cada jugador tiene {count} ficha esperando en la reserva. Tira los dados, mete las fichas en el tablero, llévalas por tu recorrido y sácalas por el otro extremo. Gana quien saque primero todas sus fichas.',
    other:
      'Cada jugador tiene {count} fichas esperando en la reserva. Tira los dados, mete las fichas en el tablero, llévalas por tu recorrido y sácalas por el otro extremo. Gana quien saque primero todas sus fichas.',
  },
  'howto.turn':
    'En tu turno: pulsa «{throw}» y luego toca una ficha iluminada o su casilla de llegada marcada.',
  'howto.path': 'El recorrido',
  'howto.pathLine':
    'Cada lado sigue su propio recorrido de {count} casillas: el claro (rosa) de {lightFrom} a {lightTo}, el oscuro (azul) de {darkFrom} a {darkTo}. «{show}» lo numera en el tablero.',
  'howto.shared': {
    one: 'La casilla que comparten ambos recorridos ({list}) es donde se encuentran las fichas: caer allí sobre una ficha rival sola la captura y la devuelve a su reserva.',
    other:
      'Las {count} casillas que comparten ambos recorridos ({list}) son donde se encuentran las fichas: caer allí sobre una ficha rival sola la captura y la devuelve a su reserva.',
  },
  'howto.apart': 'Los recorridos nunca se cruzan.',
  'howto.bearOff':
    'Una ficha sale avanzando exactamente una casilla más allá del final del recorrido.',
  'howto.dice': 'Los dados',
  'howto.diceLine': {
    one: '{count} dado de cuatro caras; muestra una punta marcada (blanca) o no, y cuentan las puntas marcadas.',
    other:
      '{count} dados de cuatro caras; cada uno muestra una punta marcada (blanca) o no, y cuentan las puntas marcadas.',
  },
  'howto.tips': {
    one: '{count} punta marcada: avanzar {move}',
    other: '{count} puntas marcadas: avanzar {move}',
  },
  'howto.passes': '{row}, sin jugada, pasa el turno',
  'howto.again': '{row}, y vuelve a tirar',
  'howto.noLegal': 'Una tirada sin jugada posible pasa el turno.',
  'howto.rosettes': 'Rosetas',
  'howto.rosetteList': { one: 'La roseta ✸ es {list}.', other: 'Las rosetas ✸ son {list}.' },
  'howto.rosetteAgain': 'Caer en una roseta da otra tirada.',
  'howto.safeAll': 'Una ficha en una roseta está a salvo: no se puede capturar.',
  'howto.safeSome': 'Una ficha está a salvo en {list}; en otras casillas se puede capturar.',
  'howto.safeNone': 'Las rosetas no protegen la ficha: allí se puede capturar.',
  'howto.special': 'Reglas especiales',
  'howto.staging':
    'Las fichas van primero a una casilla de salida S y entran al recorrido desde allí.',
  'howto.stacking': 'Las fichas de un lado pueden apilarse en una casilla y moverse juntas.',
  'howto.double': '{cell} duplica la jugada que cae allí.',
  'howto.forfeit': 'Caer en {cell} obliga al rival a avanzar una ficha 4 casillas.',
  'howto.award': 'Caer en {cell} permite entrar una ficha en S.',
  'howto.scored': 'La victoria se puntúa: el ganador cuenta las fichas que le quedan al perdedor.',
  'howto.stake': 'Cada partida se juega por una apuesta de {n}.',
};
