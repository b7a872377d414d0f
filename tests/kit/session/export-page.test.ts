/**
 * The session export page (kit/session/export): every session value escaped (a `</script>` or tag in a
 * message stays text), tool calls with their arguments and results, images as data URLs only, summaries,
 * and the tree: every branch in it, only the active path shown, the rest hidden until picked.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { branchJsonl, readSessionForExport } from "../../../kit/session/export/export-file.js";
import { escapeHtml, renderMarkdown } from "../../../kit/session/export/markdown.js";
import { renderSessionHtml } from "../../../kit/session/export/page.js";

const FIXTURE = new URL("../../fixtures/sessions/branched.jsonl", import.meta.url).pathname;
const session = readSessionForExport(FIXTURE);
const html = renderSessionHtml(session);

/** The <section> of one entry. */
function section(id: string): string {
  const start = html.indexOf(`<section class="entry`, html.indexOf(`data-id="${id}"`) - 200);
  const match = new RegExp(`<section[^>]*data-id="${id}"[^>]*>[\\s\\S]*?</section>`).exec(html.slice(start));
  if (!match) throw new Error(`no section for ${id}`);
  return match[0];
}

describe("session export page", () => {
  it("has exactly one script and no tag from a message: </script> and <img onerror> stay text", () => {
    expect(html.match(/<script>/g)).toHaveLength(1);
    expect(html.match(/<\/script>/g)).toHaveLength(1);
    expect(html).not.toContain("<img src=x");
    expect(html).toContain("&lt;/script&gt;&lt;script&gt;window.pwned=1&lt;/script&gt;");
    expect(html).toContain("&lt;img src=x onerror=&quot;window.pwned=2&quot;&gt;&lt;/div&gt;");
    expect(html).not.toMatch(/https?:\/\//);
    expect(html).toContain("default-src 'none'");
  });

  it("shows tool calls with their arguments and results, error results marked", () => {
    const call = section("a000000a");
    expect(call).toContain("Tool call: bash");
    expect(call).toContain("echo &#39;&lt;b&gt;hi&lt;/b&gt;&#39; &amp;&amp; exit 3");
    const result = section("a000000b");
    expect(result).toContain('class="tool-result error"');
    expect(result).toContain("&lt;b&gt;hi&lt;/b&gt;\nexit code 3");
    expect(section("a0000003")).toContain("Tool call: ls");
    expect(section("a0000003")).toContain("&quot;path&quot;: &quot;src&quot;");
    expect(section("a0000004")).toContain("main.ts\nutil.ts");
  });

  it("renders thinking, Markdown, images, compaction and branch summaries", () => {
    expect(section("a0000003")).toContain("The user wants a listing of src.");
    expect(section("a0000005")).toContain("<li><code>main.ts</code></li>");
    expect(section("a0000005")).toContain('<pre class="code" data-lang="ts">');
    expect(section("a0000009")).toMatch(/<img class="image" alt="image" src="data:image\/png;base64,iVBOR/);
    expect(section("a000000d")).toContain("<h2>Goal</h2>");
    expect(section("a000000d")).toContain("1,234 tokens summarized");
    expect(section("a0000008")).toContain("The user asked about main.ts");
  });

  it("puts every branch in the tree and hides only the entries off the active path", () => {
    for (const entry of session.entries.filter((e) => e.type !== "label"))
      expect(html).toContain(`data-target="${entry.id}"`);
    expect(section("a0000006")).toMatch(/^<section[^>]* hidden>/);
    expect(section("a0000007")).toMatch(/^<section[^>]* hidden>/);
    expect(section("a0000010")).not.toMatch(/^<section[^>]* hidden>/);
    expect(section("a0000002")).not.toMatch(/^<section[^>]* hidden>/);
    // The label entry has no block; its text is shown on the labelled node's tree row.
    expect(html).not.toContain('data-id="a000000e"');
    expect(html).toContain('<span class="label">[picture]</span>');
    // The entry after the hidden label hangs under the nearest shown ancestor.
    expect(section("a000000f")).toContain('data-parent="a000000d"');
  });

  it("moves the leaf: a leaf on the other branch shows that branch", () => {
    const other = renderSessionHtml({ ...session, leafId: "a0000007" });
    const start = other.indexOf('data-id="a0000007"');
    expect(other.slice(start, other.indexOf(">", start))).not.toContain("hidden");
    const later = other.indexOf('data-id="a0000010"');
    expect(other.slice(later, other.indexOf(">", later))).toContain("hidden");
  });

  it("refuses a foreign image type and non-base64 data instead of putting it in the page", () => {
    const page = renderSessionHtml({
      header: session.header,
      leafId: "x1",
      entries: [
        {
          type: "message",
          id: "x1",
          parentId: null,
          timestamp: "2026-01-01T00:00:00.000Z",
          message: {
            role: "user",
            timestamp: 0,
            content: [{ type: "image", mimeType: 'text/html"><script>', data: "AAAA" }],
          },
        },
      ],
    } as never);
    expect(page).toContain("[image not shown: text/html&quot;&gt;&lt;script&gt;]");
    expect(page.match(/<script>/g)).toHaveLength(1);
  });
});

describe("markdown and escaping", () => {
  it("escapes before adding tags, and links only http(s)/mailto", () => {
    expect(escapeHtml(`<a href="x">&'`)).toBe("&lt;a href=&quot;x&quot;&gt;&amp;&#39;");
    expect(renderMarkdown("[x](javascript:alert(1))")).not.toContain("<a");
    expect(renderMarkdown("[site](https://example.com)")).toContain('<a href="https://example.com"');
    expect(renderMarkdown("**b** and *i* and `<t>`")).toBe(
      "<p><strong>b</strong> and <em>i</em> and <code>&lt;t&gt;</code></p>",
    );
    expect(renderMarkdown("# T\n\n> q\n\n1. one\n2. two")).toBe(
      "<h1>T</h1>\n<blockquote><p>q</p></blockquote>\n<ol><li>one</li><li>two</li></ol>",
    );
  });
});

describe("branch as JSONL", () => {
  it("writes a fresh header and the root-to-leaf entries re-parented in a chain, as pi's /export", () => {
    const lines = branchJsonl(session, new Date("2026-02-02T00:00:00.000Z"))
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines[0]).toEqual({
      type: "session",
      version: 3,
      id: session.header.id,
      timestamp: "2026-02-02T00:00:00.000Z",
      cwd: "/home/user/project",
    });
    const ids = lines.slice(1).map((l) => l.id);
    expect(ids).not.toContain("a0000006");
    expect(ids).not.toContain("a0000007");
    expect(ids.at(-1)).toBe("a0000010");
    for (let i = 2; i < lines.length; i++) expect(lines[i].parentId).toBe(lines[i - 1].id);
    // The session file itself is untouched: the summary still hangs under the branch point.
    const onDisk = readFileSync(FIXTURE, "utf8")
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(onDisk.find((l) => l.id === "a0000008").parentId).toBe("a0000005");
  });
});
