// The puzzle screens' script: the puzzle page (#/puzzles…) and "learn from your mistakes"
// (#/mistakes/…), with the board and the solver they share with the table's screens.
export { mountMistakes } from './mistakes_page.ts';
export { mountPuzzles } from './puzzles_page.ts';
