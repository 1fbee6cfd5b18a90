import type { Part } from '../entry.ts';
import type { home as en } from '../en/home.ts';

export const home: Part<typeof en> = {
  'home.title': 'El Juego Real de Ur',
  'home.tagline':
    'Una carrera para dos de hace 4500 años: tira los dados, recorre el tablero con tus fichas y sácalas antes que nadie.',
  'home.play': 'Jugar',
  'home.playHint': 'Contra el ordenador, con las reglas habituales (Finkel).',
  'home.guest': 'Juegas como invitado. {link} para guardar tus partidas y tener una puntuación.',
  'home.noAccount':
    'No hace falta cuenta: juegas como invitado. {link} para guardar tus partidas y tener una puntuación.',
  'home.register': 'Regístrate',
  'home.presetsFailed': 'No se pudieron cargar los reglamentos: {why}',
  'home.howto': 'Cómo se juega',
  'home.fullRules': '(reglas completas)',
  'home.howto1':
    'Lleva todas tus fichas de la reserva al tablero, a lo largo de tu recorrido (tu fila, la fila central compartida y de vuelta a tu fila) y sácalas por el otro extremo. Gana quien saque primero todas sus fichas.',
  'home.howto2':
    'Pulsa «Tira los dados»: las puntas marcadas indican cuántas casillas avanzas. Luego toca una ficha iluminada o su casilla de llegada marcada (o pulsa su tecla numérica).',
  'home.howto3':
    'Caer en una roseta ✸ da otra tirada, y una ficha allí está a salvo. Caer sobre una ficha rival sola en la fila compartida la captura y la devuelve al inicio.',
  'home.howto4':
    'Una tirada sin jugada posible pasa el turno. Contra una persona, el reloj bajo los dados muestra cuánto tiempo te queda.',
  'daily.title': 'Problema del día',
  'daily.line':
    '{rules} · puntuación {rating}: encuentra la mejor jugada, demostrada por una tabla resuelta.',
  'daily.solve': 'Resolverlo',
  'daily.more': 'Más problemas',
  'ruleset.finkel': 'Finkel',
  'ruleset.finkel6': 'Finkel, 6 fichas',
  'ruleset.conventional': 'Convencional (Regency)',
  'ruleset.murray': 'Murray (Regency)',
  'ruleset.murray-royalur': 'Murray (recorrido RoyalUr)',
  'ruleset.british-museum': 'British Museum (Regency)',
  'ruleset.bell': 'R. C. Bell (Regency)',
  'ruleset.boxed': 'Juego en caja (premios, castigos, puntos)',
  'ruleset.masters': 'Masters',
  'ruleset.blitz': 'Blitz',
  'ruleset.aseb': 'Aseb',
  'plain.finkel':
    'Las reglas habituales hoy: 7 fichas cada uno, cuatro dados, las rosetas protegen y dan otra tirada.',
  'plain.finkel6': 'Las reglas habituales con 6 fichas cada uno; el lado claro siempre empieza.',
  'plain.conventional': 'Una lectura más antigua: tres dados, y una tirada sin marcas avanza 4.',
  'plain.murray':
    'Una carrera más larga: las fichas dan la vuelta a todo el tablero antes de salir.',
  'plain.murray-royalur':
    'La larga carrera en bucle, cuyo camino de vuelta cruza la fila del rival.',
  'plain.british-museum':
    'Las reglas publicadas por el British Museum, con su propia forma de entrar las fichas.',
  'plain.bell': 'Las reglas de R. C. Bell: algunas tiradas te dejan tirar otra vez.',
  'plain.boxed':
    'Una edición en caja con premios, castigos y puntos: para quien ya conoce lo básico.',
  'plain.masters':
    'Un recorrido más largo donde las rosetas dan otra tirada pero no protegen la ficha.',
  'plain.blitz': 'Una partida rápida: 5 fichas cada uno, y capturar también da otra tirada.',
  'plain.aseb': 'El tablero egipcio: una larga fila central de doce casillas, 5 fichas cada uno.',
};
