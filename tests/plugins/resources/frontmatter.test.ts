import { describe, expect, it } from "vitest";
import { parseFrontmatter } from "../../../kit/text/frontmatter.js";

describe("resources: frontmatter", () => {
  it("returns the whole text as body when there is no frontmatter or it never closes", () => {
    expect(parseFrontmatter("# Title\nBody")).toEqual({ frontmatter: {}, body: "# Title\nBody" });
    expect(parseFrontmatter("---\nname: x\nno closing line")).toEqual({
      frontmatter: {},
      body: "---\nname: x\nno closing line",
    });
    expect(parseFrontmatter("---- not a fence\n---\n")).toEqual({ frontmatter: {}, body: "---- not a fence\n---\n" });
  });

  it("reads scalars: plain, quoted, booleans, null, comments, CRLF and a BOM", () => {
    const doc = parseFrontmatter(
      "\uFEFF---\r\nplain: some text # comment\r\nsingle: 'it''s here'\r\ndouble: \"tab\\tand \\u00e9\"\r\nyes: true\r\nno: False\r\nnothing: ~\r\nempty:\r\nurl: http://example.com/a#b\r\n---\r\n\r\nBody line\r\n",
    );
    expect(doc.frontmatter).toEqual({
      plain: "some text",
      single: "it's here",
      double: "tab\tand é",
      yes: true,
      no: false,
      nothing: null,
      empty: null,
      url: "http://example.com/a#b",
    });
    expect(doc.body).toBe("Body line");
  });

  it("reads block scalars with their chomping, folded plain lines, nested maps and lists", () => {
    const doc = parseFrontmatter(
      "---\nliteral: |\n  line one\n    indented\n\n  line three\nkept: |+\n  keep\n\nstripped: >-\n  folded\n  text\n\n  new paragraph\nlong: first part\n  second part\nmeta:\n  author: me\n  deep:\n    level: 2\nlist:\n  - a\n  - 'b c'\n---\n",
    );
    expect(doc.frontmatter).toEqual({
      literal: "line one\n  indented\n\nline three\n",
      kept: "keep\n\n",
      stripped: "folded text\nnew paragraph",
      long: "first part second part",
      meta: { author: "me", deep: { level: "2" } },
      list: ["a", "b c"],
    });
  });

  it("names the line of malformed frontmatter", () => {
    expect(() => parseFrontmatter("---\nname: a\n  - stray\nnot a pair\n---\n")).toThrow(
      'line 4: expected "key: value"',
    );
    expect(() => parseFrontmatter("---\nname: a\nname: b\n---\n")).toThrow('line 3: duplicate key "name"');
    expect(() => parseFrontmatter("---\n  name: a\n---\n")).toThrow("line 2: unexpected indentation");
    expect(() => parseFrontmatter("---\nd: 'open\n---\n")).toThrow("line 2: unterminated 'single-quoted' value");
    expect(() => parseFrontmatter('---\nd: "a" b\n---\n')).toThrow("line 2: unexpected text after the closing quote");
    expect(() => parseFrontmatter('---\nd: "bad \\q escape"\n---\n')).toThrow(
      'line 2: invalid escape in "double-quoted" value',
    );
  });
});
