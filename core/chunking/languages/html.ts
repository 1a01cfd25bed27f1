import type { AstLanguage } from "./types.js";

export const html = htmlLike("html", [".html", ".htm", ".xhtml"]);
// Single-file components: their <template>, <script> and <style> blocks parse as HTML.
export const vue = htmlLike("vue", [".vue"]);
export const svelte = htmlLike("svelte", [".svelte"]);

/** HTML and the component formats built on it: elements, with <script>/<style> always separate. */
function htmlLike(language: string, extensions: string[]): AstLanguage {
  return {
    language,
    grammar: "tree-sitter-html",
    extensions,
    units: { script: ["script_element"], style: ["style_element"], element: ["element"] },
    detached: ["script", "style"],
    refine(node, kind) {
      if (kind !== "element") return { symbol: "" };
      const tag = node.namedChildren.find((c) => c?.type === "start_tag");
      const tagName = tag?.namedChildren.find((c) => c?.type === "tag_name")?.text ?? "";
      const idAttr = tag?.namedChildren.find((c) => c?.type === "attribute" && /^id\s*=/.test(c.text));
      const id = idAttr?.text.match(/=\s*["']?([^"'\s>]+)/)?.[1];
      return { symbol: id ? `${tagName}#${id}` : tagName };
    },
  };
}
