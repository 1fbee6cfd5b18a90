// A plain sentence per rule set for the lobby, for someone who has never played: what makes it
// different, without ids or jargon. Unknown presets fall back to the server's summary.

const PLAIN: Record<string, string> = {
  finkel:
    'The usual rules today: 7 pieces each, four dice, rosettes are safe and give another throw.',
  finkel6: 'The usual rules with 6 pieces each; the light side always starts.',
  conventional: 'An older reading: three dice, where a throw with no marks moves 4.',
  murray: 'A longer race: pieces loop round the whole board before leaving it.',
  'murray-royalur': 'The long looping race, where the way back crosses the opponent’s row.',
  'british-museum': 'The rules printed by the British Museum, with their own way to enter pieces.',
  bell: 'R. C. Bell’s rules: some throws let you throw again.',
  boxed: 'A boxed edition with awards, penalties and scoring: for those who know the basics.',
  masters: 'A longer path where rosettes give another throw but do not protect a piece.',
  blitz: 'A quick game: 5 pieces each, and a capture also gives another throw.',
  aseb: 'The Egyptian board: a long middle row of twelve squares, 5 pieces each.',
};

export function plainSentence(id: string, summary: string): string {
  return PLAIN[id] ?? summary;
}
