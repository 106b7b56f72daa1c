import { describe, expect, it } from "vitest";
import { answerMarkdown, mdLink, sourceLabel } from "../src/answer";
import { Answer, emptyAnswer } from "../src/gds";

describe("the answer page", () => {
  it("streams: a placeholder, then the text, then the numbered sources with quotes", () => {
    expect(answerMarkdown("Cost?", emptyAnswer)).toBe("## Cost?\n\n_Searching your documents…_\n");
    const a: Answer = {
      ...emptyAnswer,
      done: true,
      extractive: true,
      text: "4500 dollars. [1]",
      sources: [
        {
          ref: 1,
          fileId: "f",
          name: "Q1 (final).pdf",
          chunkId: "f#0",
          page: 2,
          text: "line one\nline two",
          link: "file:///d/Q1 (final).pdf",
        },
      ],
    };
    const md = answerMarkdown("Cost?", a);
    expect(md).toContain("4500 dollars. [1]");
    expect(md).toContain("offline provider");
    expect(md).toContain("**[[1] Q1 (final).pdf, p. 2](file:///d/Q1%20%28final%29.pdf)**\n\n> line one\n> line two");
  });
  it("says what failed", () => {
    const md = answerMarkdown("q", {
      ...emptyAnswer,
      done: true,
      error: { message: "nothing is indexed yet", hint: "run gds crawl" },
    });
    expect(md).toContain("**nothing is indexed yet**\n\nrun gds crawl");
  });
  it("labels and links", () => {
    expect(sourceLabel({ ref: 3, fileId: "", name: "a.txt", chunkId: "", text: "", link: "" })).toBe("[3] a.txt");
    expect(mdLink("https://x/a(b) c")).toBe("https://x/a%28b%29%20c");
  });
});
