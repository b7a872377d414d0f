import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createFileLocks } from "../../../contracts/tool.js";
import { contentOf, edit, put, tempFolder } from "./harness.js";

describe("edit: replacements", () => {
  it("replaces a unique exact match, returns a short summary and a numbered diff", async () => {
    const dir = tempFolder();
    put(dir, "app.ts", "const a = 1;\nconst b = 2;\nconst c = 3;\n");
    const result = await edit(dir, { path: "app.ts", edits: [{ oldText: "const b = 2;", newText: "const b = 20;" }] });
    expect(contentOf(dir, "app.ts")).toBe("const a = 1;\nconst b = 20;\nconst c = 3;\n");
    expect(result.content).toEqual([{ type: "text", text: "Successfully replaced 1 block(s) in app.ts." }]);
    expect(result.details).toEqual({
      diff: " 1 const a = 1;\n-2 const b = 2;\n+2 const b = 20;\n 3 const c = 3;",
      firstChangedLine: 2,
    });
  });

  it("applies several disjoint edits, each matched against the original file", async () => {
    const dir = tempFolder();
    put(dir, "list.txt", "one\ntwo\nthree\nfour\n");
    const result = await edit(dir, {
      path: "list.txt",
      edits: [
        { oldText: "four", newText: "FOUR" },
        { oldText: "one", newText: "two" },
      ],
    });
    expect(contentOf(dir, "list.txt")).toBe("two\ntwo\nthree\nFOUR\n");
    expect(result.content).toEqual([{ type: "text", text: "Successfully replaced 2 block(s) in list.txt." }]);
  });

  it("accepts the legacy top-level oldText/newText pair and a JSON-string edits array", async () => {
    const dir = tempFolder();
    put(dir, "f.txt", "alpha beta gamma");
    await edit(dir, { path: "f.txt", oldText: "beta", newText: "BETA" });
    expect(contentOf(dir, "f.txt")).toBe("alpha BETA gamma");
    await edit(dir, { path: "f.txt", edits: JSON.stringify([{ oldText: "gamma", newText: "GAMMA" }]) });
    expect(contentOf(dir, "f.txt")).toBe("alpha BETA GAMMA");
  });

  it("can delete text and insert multi-line text", async () => {
    const dir = tempFolder();
    put(dir, "f.txt", "keep\nremove me\nkeep too\n");
    await edit(dir, { path: "f.txt", edits: [{ oldText: "remove me\n", newText: "" }] });
    expect(contentOf(dir, "f.txt")).toBe("keep\nkeep too\n");
    await edit(dir, { path: "f.txt", edits: [{ oldText: "keep too", newText: "line a\nline b" }] });
    expect(contentOf(dir, "f.txt")).toBe("keep\nline a\nline b\n");
  });

  it("resolves the path against cwd and honours absolute paths", async () => {
    const dir = tempFolder();
    mkdirSync(join(dir, "src"));
    const absolute = put(dir, "src/x.ts", "old");
    await edit(dir, { path: "src/x.ts", edits: [{ oldText: "old", newText: "mid" }] });
    await edit("/", { path: absolute, edits: [{ oldText: "mid", newText: "new" }] });
    expect(contentOf(dir, "src/x.ts")).toBe("new");
  });
});

describe("edit: forgiving match", () => {
  it("matches straight quotes sent by the model against smart quotes in the file, touching nothing else", async () => {
    const dir = tempFolder();
    put(dir, "quotes.md", "Intro: “keep these” and don’t.\nShe said “it’s fine” today.\nOutro: ‘also kept’.\n");
    await edit(dir, {
      path: "quotes.md",
      edits: [{ oldText: `She said "it's fine" today.`, newText: `She said "it's great" today.` }],
    });
    expect(contentOf(dir, "quotes.md")).toBe(
      'Intro: “keep these” and don’t.\nShe said "it\'s great" today.\nOutro: ‘also kept’.\n',
    );
  });

  it("tolerates Unicode dashes, NBSPs and trailing whitespace the model left out", async () => {
    const dir = tempFolder();
    put(dir, "doc.txt", "range 1–5 — inclusive   \nprice:\u00A010\t\nend\n");
    await edit(dir, {
      path: "doc.txt",
      edits: [{ oldText: "range 1-5 - inclusive\nprice: 10", newText: "range 1-9\nprice: 12" }],
    });
    expect(contentOf(dir, "doc.txt")).toBe("range 1-9\nprice: 12\nend\n");
  });

  it("prefers an exact match over a folded one", async () => {
    const dir = tempFolder();
    put(dir, "f.txt", "it’s curly\nit's straight\n");
    await edit(dir, { path: "f.txt", edits: [{ oldText: "it's", newText: "it is" }] });
    expect(contentOf(dir, "f.txt")).toBe("it’s curly\nit is straight\n");
  });

  it("refuses a folded match that is not unique, with the count", async () => {
    const dir = tempFolder();
    put(dir, "f.txt", "don’t stop\ndon‘t stop\n");
    await expect(edit(dir, { path: "f.txt", edits: [{ oldText: "don't stop", newText: "go" }] })).rejects.toThrow(
      "Found 2 occurrences of the text in f.txt. The text must be unique. Please provide more context to make it unique.",
    );
  });
});

describe("edit: line endings and BOM", () => {
  it("keeps CRLF line endings of a CRLF file", async () => {
    const dir = tempFolder();
    put(dir, "win.txt", "first\r\nsecond\r\nthird\r\n");
    const result = await edit(dir, {
      path: "win.txt",
      edits: [{ oldText: "second\nthird", newText: "2nd\nextra\n3rd" }],
    });
    expect(contentOf(dir, "win.txt")).toBe("first\r\n2nd\r\nextra\r\n3rd\r\n");
    expect(result.details?.diff).not.toContain("\r");
  });

  it("matches oldText sent with CRLF against a CRLF file", async () => {
    const dir = tempFolder();
    put(dir, "win.txt", "a\r\nb\r\nc\r\n");
    await edit(dir, { path: "win.txt", edits: [{ oldText: "a\r\nb", newText: "A\r\nB" }] });
    expect(contentOf(dir, "win.txt")).toBe("A\r\nB\r\nc\r\n");
  });

  it("keeps a UTF-8 BOM, which oldText never contains", async () => {
    const dir = tempFolder();
    put(dir, "bom.cs", "\uFEFFusing System;\nclass A {}\n");
    await edit(dir, { path: "bom.cs", edits: [{ oldText: "using System;", newText: "using System.IO;" }] });
    expect(contentOf(dir, "bom.cs")).toBe("\uFEFFusing System.IO;\nclass A {}\n");
  });

  it("keeps both a BOM and CRLF endings", async () => {
    const dir = tempFolder();
    put(dir, "both.txt", "\uFEFFx = 1\r\ny = 2\r\n");
    await edit(dir, { path: "both.txt", edits: [{ oldText: "x = 1\ny = 2", newText: "x = 10\ny = 20" }] });
    expect(contentOf(dir, "both.txt")).toBe("\uFEFFx = 10\r\ny = 20\r\n");
  });

  it("leaves an LF file LF when newText carries CRLF", async () => {
    const dir = tempFolder();
    put(dir, "unix.txt", "a\nb\n");
    await edit(dir, { path: "unix.txt", edits: [{ oldText: "b", newText: "b\r\nc" }] });
    expect(contentOf(dir, "unix.txt")).toBe("a\nb\nc\n");
  });
});

describe("edit: errors", () => {
  it("refuses text that is not in the file", async () => {
    const dir = tempFolder();
    put(dir, "f.txt", "hello\n");
    await expect(edit(dir, { path: "f.txt", edits: [{ oldText: "goodbye", newText: "x" }] })).rejects.toThrow(
      "Could not find the exact text in f.txt. The old text must match exactly including all whitespace and newlines.",
    );
    expect(contentOf(dir, "f.txt")).toBe("hello\n");
  });

  it("refuses non-unique text, stating how many matches and asking for more context", async () => {
    const dir = tempFolder();
    put(dir, "f.txt", "x = 1;\nx = 1;\nx = 1;\n");
    await expect(edit(dir, { path: "f.txt", edits: [{ oldText: "x = 1;", newText: "x = 2;" }] })).rejects.toThrow(
      "Found 3 occurrences of the text in f.txt. The text must be unique. Please provide more context to make it unique.",
    );
    expect(contentOf(dir, "f.txt")).toBe("x = 1;\nx = 1;\nx = 1;\n");
  });

  it("names the failing entry when a batch has several edits, and writes nothing", async () => {
    const dir = tempFolder();
    put(dir, "f.txt", "a b a");
    await expect(
      edit(dir, {
        path: "f.txt",
        edits: [
          { oldText: "b", newText: "B" },
          { oldText: "a", newText: "A" },
        ],
      }),
    ).rejects.toThrow(
      "Found 2 occurrences of edits[1] in f.txt. Each oldText must be unique. Please provide more context to make it unique.",
    );
    await expect(
      edit(dir, {
        path: "f.txt",
        edits: [
          { oldText: "b", newText: "B" },
          { oldText: "zzz", newText: "A" },
        ],
      }),
    ).rejects.toThrow(
      "Could not find edits[1] in f.txt. The oldText must match exactly including all whitespace and newlines.",
    );
    expect(contentOf(dir, "f.txt")).toBe("a b a");
  });

  it("refuses overlapping edits, empty oldText, and edits that change nothing", async () => {
    const dir = tempFolder();
    put(dir, "f.txt", "abcdef");
    await expect(
      edit(dir, {
        path: "f.txt",
        edits: [
          { oldText: "abc", newText: "x" },
          { oldText: "cde", newText: "y" },
        ],
      }),
    ).rejects.toThrow("edits[0] and edits[1] overlap in f.txt. Merge them into one edit or target disjoint regions.");
    await expect(edit(dir, { path: "f.txt", edits: [{ oldText: "", newText: "x" }] })).rejects.toThrow(
      "oldText must not be empty in f.txt.",
    );
    await expect(edit(dir, { path: "f.txt", edits: [{ oldText: "abc", newText: "abc" }] })).rejects.toThrow(
      "No changes made to f.txt. The replacement produced identical content.",
    );
  });

  it("refuses input without edits", async () => {
    const dir = tempFolder();
    put(dir, "f.txt", "abc");
    await expect(edit(dir, { path: "f.txt", edits: [] })).rejects.toThrow(
      "Edit tool input is invalid. edits must contain at least one replacement.",
    );
    await expect(edit(dir, { path: "f.txt", edits: [{ oldText: "a" }] })).rejects.toThrow(
      "Edit tool input is invalid. edits[0] needs string oldText and newText.",
    );
  });

  it("a missing file, a folder and a binary file are clear errors", async () => {
    const dir = tempFolder();
    mkdirSync(join(dir, "src"));
    put(dir, "blob.bin", Buffer.from([0x61, 0x00, 0x62]));
    const change = [{ oldText: "a", newText: "b" }];
    await expect(edit(dir, { path: "missing.txt", edits: change })).rejects.toThrow(
      "Could not edit file: missing.txt. File not found.",
    );
    await expect(edit(dir, { path: "src", edits: change })).rejects.toThrow(
      "Could not edit file: src. It is a directory.",
    );
    await expect(edit(dir, { path: "blob.bin", edits: change })).rejects.toThrow(
      "Could not edit file: blob.bin. It is a binary file.",
    );
  });

  it("an aborted signal leaves the file untouched", async () => {
    const dir = tempFolder();
    put(dir, "f.txt", "abc");
    const controller = new AbortController();
    controller.abort();
    await expect(
      edit(dir, { path: "f.txt", edits: [{ oldText: "a", newText: "z" }] }, createFileLocks(), controller.signal),
    ).rejects.toThrow("Operation aborted");
    expect(contentOf(dir, "f.txt")).toBe("abc");
  });
});

describe("edit: the file lock", () => {
  it("concurrent edits of one file from parallel calls all apply", async () => {
    const dir = tempFolder();
    const lines = Array.from({ length: 20 }, (_, i) => `value${i} = ${i};`);
    put(dir, "shared.ts", `${lines.join("\n")}\n`);
    const locks = createFileLocks();
    await Promise.all(
      lines.map((line, i) =>
        edit(dir, { path: "shared.ts", edits: [{ oldText: line, newText: `value${i} = ${i * 100 + 7};` }] }, locks),
      ),
    );
    expect(contentOf(dir, "shared.ts")).toBe(`${lines.map((_, i) => `value${i} = ${i * 100 + 7};`).join("\n")}\n`);
  });

  it("runs each edit inside the lock of the file's absolute path, one at a time", async () => {
    const dir = tempFolder();
    const path = put(dir, "f.txt", "a\nb\n");
    const locks = createFileLocks();
    const keys: string[] = [];
    let active = 0;
    let mostActive = 0;
    const countingLock = <T>(key: string, work: () => Promise<T>): Promise<T> => {
      keys.push(key);
      return locks(key, async () => {
        active++;
        mostActive = Math.max(mostActive, active);
        try {
          return await work();
        } finally {
          active--;
        }
      });
    };
    await Promise.all([
      edit(dir, { path: "f.txt", edits: [{ oldText: "a", newText: "A" }] }, countingLock),
      edit(dir, { path: "f.txt", edits: [{ oldText: "b", newText: "B" }] }, countingLock),
    ]);
    expect(keys).toEqual([path, path]);
    expect(mostActive).toBe(1);
    expect(contentOf(dir, "f.txt")).toBe("A\nB\n");
  });
});
