// HCL (`.hcl`: Nomad, Packer, Terragrunt, Vault) and its Terraform dialect (`.tf`, `.tfvars`):
// each block is a unit, kind by its type where Terraform gives one a meaning (`resource`,
// `data`, `variable`, `output`, `module`, `provider`), else `block`; named by its labels as
// Terraform addresses it (`aws_instance.web`). A file's top-level attributes (`.tfvars`) are
// `key`s. Both grammars are vendored (grammars/hcl/).
import type { Node } from "web-tree-sitter";
import { singleLine } from "../syntax.js";
import { previousAcrossList } from "./first-statement.js";
import type { AstLanguage, Refinement } from "./types.js";

/** Block types whose name is their kind. */
const TERRAFORM_KINDS = new Set(["resource", "data", "variable", "output", "module", "provider", "locals"]);

const units: AstLanguage["units"] = {
  block: ["block"],
  key: ["(config_file (body (attribute) @key))"],
};

function refine(node: Node): Refinement | null {
  const children = node.namedChildren.filter((c): c is Node => c !== null);
  if (node.type === "attribute") return { symbol: children.find((c) => c.type === "identifier")?.text ?? "" };
  const type = children[0]?.type === "identifier" ? children[0].text : "";
  // Labels are quoted strings or bare identifiers: `resource "aws_instance" "web"`, `job "api"`.
  const labels = children.slice(1).filter((c) => c.type === "string_lit" || c.type === "identifier").map((c) => labelText(c));
  // `locals { … }` has no name: its label is its kind alone.
  if (TERRAFORM_KINDS.has(type)) return { kind: type, symbol: labels.join(".") };
  return { kind: "block", symbol: singleLine([type, ...labels].join(" ")) };
}

function labelText(label: Node): string {
  if (label.type === "identifier") return label.text;
  return label.namedChildren.find((c) => c?.type === "template_literal")?.text ?? label.text.replace(/^"|"$/g, "");
}

export const terraform: AstLanguage = {
  language: "terraform",
  grammar: "tree-sitter-terraform",
  extensions: [".tf", ".tfvars"],
  units,
  leading: ["comment"],
  // The comment above a file's first block belongs to it.
  previous: previousAcrossList("body", ["config_file"]),
  outlineByUnits: true,
  refine,
};

export const hcl: AstLanguage = { ...terraform, language: "hcl", grammar: "tree-sitter-hcl", extensions: [".hcl"] };
