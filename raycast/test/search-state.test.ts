import { describe, expect, it } from "vitest";
import { FilterResult, MARKER } from "../src/gds";
import { answered, filterText, initialState, picked, typed } from "../src/search-state";

const results: FilterResult = { rows: [] };
const asks = (token: string): FilterResult => ({
  rows: [],
  question: { kind: "question", title: "Which?", subtitle: "", token },
});

describe("what Search Drive asks gds", () => {
  it("typing asks the quick index for each keystroke", () => {
    let s = typed(initialState, "eng");
    expect(filterText(s)).toBe("eng");
    s = typed(s, "engine");
    expect(filterText(s)).toBe("engine");
  });

  it("a full search, a question answered from the search bar or by a choice, then a new search", () => {
    let s = typed(initialState, "report");
    s = picked(s, `${MARKER} report`);
    expect(filterText(s)).toBe(`${MARKER} report`);
    s = answered(s, asks("T1"));
    expect(s).toEqual({ text: "", token: "T1", query: "report" });
    expect(filterText(s)).toBe(`${MARKER}[T1] `);
    s = typed(s, "the sales one");
    expect(filterText(s)).toBe(`${MARKER}[T1] the sales one`);
    expect(answered(s, asks("T1"))).toBe(s); // the draft's own response
    s = picked(s, `${MARKER}[T1]=the sales one`);
    expect(filterText(s)).toBe(`${MARKER}[T1]=the sales one`);
    s = answered(s, asks("T2")); // a second question
    expect(filterText(s)).toBe(`${MARKER}[T2] `);
    s = picked(s, `${MARKER}[T2]=1`);
    s = answered(s, results);
    expect(filterText(s)).toBe(`${MARKER}[T2]=1`);
    expect(s.query).toBe("report");
    s = typed(s, "budget");
    expect(s).toEqual({ text: "budget" });
    expect(filterText(s)).toBe("budget");
  });
});
