// What Search Drive asks gds, as the user types and picks (pure: no I/O).
//
//   typing            each keystroke runs `gds alfred filter TEXT` (the quick index matches)
//   full search       "Run Full Search" runs the grammar text "⌕ TEXT" (the hybrid loop)
//   a question        when gds asks one, the search bar takes the answer: each keystroke
//                     shows the question with the draft ("⌕[TOKEN] DRAFT"), a choice
//                     answers it ("⌕[TOKEN]=N") and the loop goes on
//
// Typing anything while results of a full search are shown starts a new quick search.
import { FilterResult, pendingText } from "./gds";

export interface SearchState {
  /** The search bar. */
  text: string;
  /** A text of gds's grammar that replaces the search bar's (a full search, an answer). */
  grammar?: string;
  /** The token of the question the search bar answers. */
  token?: string;
  /** The query of the full search under way, for the title. */
  query?: string;
}

export const initialState: SearchState = { text: "" };

/** The text to pass to `gds alfred filter`. */
export function filterText(s: SearchState): string {
  if (s.token) return pendingText(s.token, s.text);
  return s.grammar ?? s.text;
}

/** The user typed: a draft answer while a question is pending, else a new quick search. */
export function typed(s: SearchState, text: string): SearchState {
  if (s.token) return { ...s, text };
  return { text };
}

/** The user picked an item that runs grammar (a full search, or an answer). */
export function picked(s: SearchState, grammar: string): SearchState {
  return { text: s.text, grammar, query: s.query ?? s.text };
}

/**
 * gds answered: when it asks a question, the search bar is cleared for the
 * answer; otherwise the state stays (the shown results are its answer).
 */
export function answered(s: SearchState, r: FilterResult): SearchState {
  if (r.question) {
    if (s.token === r.question.token) return s; // the draft's response
    return { text: "", token: r.question.token, query: s.query ?? s.text };
  }
  return s;
}
