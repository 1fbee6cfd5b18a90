// Counted words in English by the language's own rules (Intl.PluralRules): "1 second",
// "2 seconds". One place, so that no screen writes "1 seconds".

const rules = new Intl.PluralRules('en');

/** `n` with the word for its count: count(1, 'second') is "1 second", count(3, 'second') "3 seconds". */
export function count(n: number, one: string, other = `${one}s`): string {
  return `${n} ${rules.select(n) === 'one' ? one : other}`;
}
