/**
 * The export page's inline style sheet and script (no network, no libraries). The script only shows and
 * hides server-rendered blocks: picking a node in the tree shows the path from the root through it to
 * its newest leaf. It reads nothing from the session, so no session text ever reaches script context.
 */

/** The page's CSS. */
export const PAGE_CSS = `
:root { color-scheme: dark; --bg: #1b1c22; --card: #24252d; --fg: #e4e4e7; --dim: #9a9aa5; --accent: #8ab4f8;
  --user: #2f3342; --tool: #22302a; --error: #f28b82; --border: #3a3b45; }
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--fg); font: 14px/1.5 system-ui, sans-serif; display: flex; min-height: 100vh; }
#tree { width: 300px; flex: none; border-right: 1px solid var(--border); padding: 12px 8px; overflow: auto; max-height: 100vh; position: sticky; top: 0; }
#tree h2 { font-size: 13px; margin: 0 0 8px 6px; color: var(--dim); text-transform: uppercase; letter-spacing: .05em; }
#tree .node { display: block; width: 100%; text-align: left; background: none; border: 0; color: var(--dim); font: 12px/1.4 ui-monospace, monospace;
  padding: 2px 6px; cursor: pointer; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; border-radius: 4px; }
#tree .node:hover { background: var(--card); }
#tree .node.on-path { color: var(--fg); }
#tree .node.selected { background: var(--user); }
#tree .label { color: var(--accent); margin-left: 4px; }
main { flex: 1; min-width: 0; padding: 16px 24px; max-width: 960px; }
header h1 { font-size: 18px; margin: 0 0 4px; }
header .meta { color: var(--dim); font-size: 12px; margin-bottom: 16px; word-break: break-all; }
.entry { background: var(--card); border: 1px solid var(--border); border-radius: 8px; padding: 10px 14px; margin: 10px 0; overflow-wrap: anywhere; }
.entry.user { background: var(--user); }
.entry.toolResult, .entry.bashExecution { background: var(--tool); }
.entry.model-change, .entry.thinking-level-change { background: none; border-style: dashed; padding: 4px 14px; }
.head { font-size: 12px; font-weight: 600; color: var(--dim); margin-bottom: 4px; }
.head.assistant { color: var(--accent); }
.tool-result.error .head, .error-text { color: var(--error); }
.plain { white-space: pre-wrap; }
.info { color: var(--dim); font-size: 12px; }
pre { background: #15161b; border-radius: 6px; padding: 8px 10px; overflow: auto; font: 12px/1.45 ui-monospace, monospace; white-space: pre-wrap; margin: 6px 0; }
code { font-family: ui-monospace, monospace; background: #15161b; padding: 0 3px; border-radius: 3px; }
pre code { background: none; padding: 0; }
.tool-call { border-left: 3px solid var(--accent); padding-left: 10px; margin: 8px 0; }
details.thinking { color: var(--dim); font-style: italic; margin: 6px 0; }
details.thinking summary { cursor: pointer; font-style: normal; font-size: 12px; }
.image { max-width: 100%; max-height: 480px; image-rendering: pixelated; min-width: 32px; border: 1px solid var(--border); margin: 6px 0; }
.md p { margin: 6px 0; } .md h1, .md h2, .md h3 { font-size: 15px; margin: 10px 0 4px; }
blockquote { border-left: 3px solid var(--border); margin: 6px 0; padding-left: 10px; color: var(--dim); }
a { color: var(--accent); }
@media (max-width: 800px) { body { display: block; } #tree { width: auto; position: static; max-height: 40vh; border-right: 0; border-bottom: 1px solid var(--border); } }
`;

/** The page's script: tree navigation over the blocks' data-id / data-parent attributes. */
export const PAGE_JS = `
(function () {
  var blocks = Array.prototype.slice.call(document.querySelectorAll(".entry"));
  var nodes = Array.prototype.slice.call(document.querySelectorAll("#tree .node"));
  var parentOf = {}, children = {};
  blocks.forEach(function (b) {
    var id = b.getAttribute("data-id"), parent = b.getAttribute("data-parent") || "";
    parentOf[id] = parent;
    (children[parent] = children[parent] || []).push(id);
  });
  function show(id) {
    var leaf = id;
    while (children[leaf] && children[leaf].length) leaf = children[leaf][children[leaf].length - 1];
    var onPath = {};
    for (var cur = leaf; cur; cur = parentOf[cur]) onPath[cur] = true;
    blocks.forEach(function (b) { b.hidden = !onPath[b.getAttribute("data-id")]; });
    nodes.forEach(function (n) {
      var nid = n.getAttribute("data-target");
      n.classList.toggle("on-path", !!onPath[nid]);
      n.classList.toggle("selected", nid === id);
    });
    var target = document.getElementById("e-" + id);
    if (target && target.scrollIntoView) target.scrollIntoView({ block: "nearest" });
  }
  nodes.forEach(function (n) {
    n.addEventListener("click", function () { show(n.getAttribute("data-target")); });
  });
})();
`;
