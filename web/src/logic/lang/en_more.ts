// English words of the screens beyond the first (puzzles, review, explorer, how to play, the
// account and the players' pages): a chunk of its own (i18n.ts, englishWords), fetched with
// those screens' script by a reader of English only. en_first.ts has the rest.
import { account } from './en/account.ts';
import { explore } from './en/explore.ts';
import { howto } from './en/howto.ts';
import { players } from './en/players.ts';
import { puzzles } from './en/puzzles.ts';
import { review } from './en/review.ts';

export const enMore = {
  ...puzzles,
  ...review,
  ...explore,
  ...howto,
  ...account,
  ...players,
};
