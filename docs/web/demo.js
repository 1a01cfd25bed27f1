// The demo page: files in, chunks and vectors built in the page, hybrid search out.
// Asset locations default to what `opencode-rag serve-web` serves; query parameters
// (?grammars=&models=&ort=) point elsewhere (the browser tests serve the repository root).
import { BUNDLED_MODEL_ID, WebSearch, contentLines, previewWindow } from "./opencode-rag-web.js";

const params = new URLSearchParams(location.search);
const urls = {
  grammars: params.get("grammars") ?? "/grammars/",
  models: params.get("models") ?? "/models/",
  ort: params.get("ort") ?? "/ort/",
  model: params.get("model") ?? BUNDLED_MODEL_ID,
};
const $ = (id) => document.getElementById(id);
const status = (text) => ($("status").textContent = text);
// Text files only: the page reads each as UTF-8 and skips anything that looks binary.
const SKIP_DIRS = /(^|\/)(node_modules|\.git|dist|build|out|coverage|target|vendor)\//;
const MAX_BYTES = 1_048_576;
let corpus = new Map();
let engine;

async function start() {
  try {
    engine = await WebSearch.create({ grammarsUrl: urls.grammars, model: { modelsUrl: urls.models, modelId: urls.model, ortUrl: urls.ort } });
    status("Model ready. Drop a folder to index it.");
  } catch (err) {
    engine = await WebSearch.create({ grammarsUrl: urls.grammars });
    status(`The embedding model could not load (${err.message}); searching keywords only. Drop a folder to index it.`);
  }
  window.ragDemo.ready = true;
}

async function indexFiles(files) {
  const fresh = files.filter((f) => !corpus.has(f.path));
  for (const f of fresh) corpus.set(f.path, f.text);
  $("progress").hidden = false;
  const { errors } = await engine.addFiles(fresh, (p) => {
    $("progress").max = p.filesTotal;
    $("progress").value = p.filesDone;
    status(`Indexing ${p.filesDone}/${p.filesTotal} files, ${p.chunks} chunks…`);
  });
  $("progress").hidden = true;
  status(`Indexed ${engine.fileCount} files, ${engine.chunkCount} chunks${engine.semantic ? "" : " (keywords only)"}${errors.length ? `; ${errors.length} file(s) skipped` : ""}.`);
  $("query").disabled = false;
  $("search").disabled = false;
  return { files: engine.fileCount, chunks: engine.chunkCount, errors };
}

async function readFileList(list) {
  const out = [];
  for (const file of list) {
    const path = (file.webkitRelativePath || file.relativePath || file.name).replace(/\\/g, "/");
    if (SKIP_DIRS.test(path) || file.size > MAX_BYTES) continue;
    const text = await file.text();
    if (text.includes("\u0000")) continue;
    out.push({ path, text });
  }
  return out;
}

async function walkEntry(entry, prefix, out) {
  if (entry.isFile) {
    const file = await new Promise((resolve, reject) => entry.file(resolve, reject));
    file.relativePath = prefix + entry.name;
    out.push(file);
  } else if (entry.isDirectory) {
    const reader = entry.createReader();
    for (;;) {
      const batch = await new Promise((resolve, reject) => reader.readEntries(resolve, reject));
      if (batch.length === 0) break;
      for (const child of batch) await walkEntry(child, `${prefix}${entry.name}/`, out);
    }
  }
}

function escapeHtml(s) {
  return s.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
}

/** Up to 30 of the hit's lines, those that show the query best, with a little context; its own range highlighted. */
function snippet(r, query) {
  const text = corpus.get(r.chunk.filePath) ?? r.chunk.content;
  const lines = text.split("\n");
  const shown = previewWindow(contentLines(r.chunk.content), query, 30);
  const from = Math.max(1, r.chunk.startLine + shown.start - 2);
  const to = Math.min(lines.length, r.chunk.startLine + shown.end + 1);
  let html = "";
  for (let n = from; n <= to; n++) {
    const hit = n >= r.chunk.startLine && n <= r.chunk.endLine;
    html += `<span class="line${hit ? " hit" : ""}"><span class="num">${n}</span>${escapeHtml(lines[n - 1] ?? "")}</span>`;
  }
  return `<pre>${html}</pre>`;
}

async function search(query, topK = 10) {
  const results = await engine.search(query, topK);
  $("results").innerHTML = results
    .map((r) => {
      const c = r.chunk;
      const what = c.symbol ? ` ${c.kind} <code>${escapeHtml(c.symbol)}</code>` : ` ${c.kind}`;
      return `<li data-path="${escapeHtml(c.filePath)}"><div class="hit-head"><strong>${escapeHtml(c.filePath)}</strong>:${c.startLine}-${c.endLine} · ${c.language}${what}<span class="score">${r.score.toFixed(2)}</span></div>${snippet(r, query)}</li>`;
    })
    .join("");
  if (results.length === 0) $("results").innerHTML = "<li>No match.</li>";
  return results.map((r) => ({ filePath: r.chunk.filePath, startLine: r.chunk.startLine, endLine: r.chunk.endLine, score: r.score }));
}

window.ragDemo = { ready: false, indexFiles, search };

$("pick-folder").addEventListener("change", async (e) => indexFiles(await readFileList(e.target.files)));
$("pick-files").addEventListener("change", async (e) => indexFiles(await readFileList(e.target.files)));
const drop = $("drop");
drop.addEventListener("dragover", (e) => {
  e.preventDefault();
  drop.classList.add("over");
});
drop.addEventListener("dragleave", () => drop.classList.remove("over"));
drop.addEventListener("drop", async (e) => {
  e.preventDefault();
  drop.classList.remove("over");
  const files = [];
  for (const item of e.dataTransfer.items) {
    const entry = item.webkitGetAsEntry?.();
    if (entry) await walkEntry(entry, "", files);
  }
  await indexFiles(await readFileList(files));
});
$("search-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const q = $("query").value.trim();
  if (q) search(q);
});
start();
